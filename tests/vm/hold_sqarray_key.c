// SPDX-License-Identifier: GPL-2.0
/*
 * hold_sqarray_key: keep one io_uring with an SQ array open until killed.
 *
 * io_uring guards the SQ-array branch of io_submit_sqes() with a deferred
 * static key (io_key_has_sqarray): it is switched on when the first ring
 * with an SQ array is created and off one second after the last one is
 * freed. Every switch rewrites kernel text with the int3 protocol. A test
 * suite creates and frees such rings all the time, and under QEMU's TCG
 * the stock 7.2.13 kernel was seen to oops ("Oops: int3" in
 * io_submit_sqes) when the key flipped while a loop program spun in the
 * submit path on another vCPU (once in CI; 660 runs of hybrid-poll with the
 * key switched on and off 140 times beside them did not repeat it: the race
 * lies in the kernel's text patching or in TCG, not in the programs under
 * test).
 * tests/run starts this holder before the VM suites, so the key stays on
 * and the text is not rewritten during the run.
 */
#include <linux/io_uring.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct io_uring_params p;
	int fd;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 1, &p);
	if (fd < 0) {
		perror("hold_sqarray_key: io_uring_setup");
		return 1;
	}
	for (;;)
		pause();
}

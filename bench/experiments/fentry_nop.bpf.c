// SPDX-License-Identifier: GPL-2.0
/*
 * fentry_nop - bench experiment: an empty fentry program on io_nop(), to
 * measure what one BPF trampoline round trip (enter, program, exit) adds to
 * an IORING_OP_NOP. Attach it with bpftool (prog loadall ... autoattach)
 * and run `bench op-overhead`: the NOP's cost rises by one trampoline.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("fentry/io_nop")
int BPF_PROG(fentry_io_nop)
{
	return 0;
}

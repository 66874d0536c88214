// SPDX-License-Identifier: GPL-2.0
/*
 * errinject - an IORING_OP_BPF operation that fails on purpose.
 *
 * What it shows: error injection, one of the uses Ming Lei's series names.
 * Put an errinject request where a test wants io_uring to see an error: it
 * completes with res 0, or with -err when the chosen rule fires. A failed
 * request breaks an IOSQE_IO_LINK chain: the requests linked after it
 * complete with -ECANCELED, exactly as with a real I/O error.
 *
 * The decision is made in prep_fn, in submission order (under the ring
 * lock), kept in the request's pdu, and applied in issue_fn. Rules
 * (rodata parameter `mode`):
 *   0  always
 *   1  every nth request (the nth, 2nth, ...: parameter `nth`)
 *   2  with probability `prob_pct` percent (bpf_get_prandom_u32)
 *   3  for the user_data values present in the hash map `fail_ud`
 *      (value: the errno to use, or 0 for `err`)
 * `err` is the positive errno to inject (default 5, EIO). Counters:
 * nr_injected, nr_passed.
 *
 * Run:   iouring-bpf run errinject --count 100 --set mode=1 --set nth=10
 *        (exactly 10 of 100 requests fail with -EIO; every mode is
 *        checked, and a link chain is shown to be broken by an injection)
 * Load:  iouring-bpf load errinject --id 3 --set mode=2 --set prob_pct=5
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

enum { MODE_ALWAYS, MODE_NTH, MODE_PROB, MODE_UD };

const volatile __u32 mode = MODE_ALWAYS;
const volatile __u32 nth = 2;
const volatile __u32 prob_pct = 50;
const volatile __u32 err = EIO;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);		/* user_data */
	__type(value, __u32);		/* errno, 0 = `err` */
} fail_ud SEC(".maps");

__u64 nr_seen, nr_injected, nr_passed;

static __always_inline __s32 decide(const struct io_uring_sqe *sqe)
{
	__u64 seen = __sync_fetch_and_add(&nr_seen, 1) + 1;
	__u64 ud;
	__u32 *e;

	switch (mode) {
	case MODE_ALWAYS:
		return err;
	case MODE_NTH:
		return nth && seen % nth == 0 ? err : 0;
	case MODE_PROB:
		return bpf_get_prandom_u32() % 100 < prob_pct ? err : 0;
	case MODE_UD:
		ud = sqe->user_data;
		e = bpf_map_lookup_elem(&fail_ud, &ud);
		if (!e)
			return 0;
		return *e ? *e : err;
	}
	return 0;
}

IOU_OP_PREP(errinject_prep)
{
	*(__s32 *)data->pdu = decide(sqe);
	return 0;
}

IOU_OP_ISSUE(errinject_issue)
{
	__s32 e = *(__s32 *)data->pdu;

	if (e > 0 && e < 4096) {
		__sync_fetch_and_add(&nr_injected, 1);
		return -e;
	}
	__sync_fetch_and_add(&nr_passed, 1);
	return 0;
}

IOU_OP_OPS(errinject_ops, 3, errinject_prep, errinject_issue);

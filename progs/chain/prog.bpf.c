// SPDX-License-Identifier: GPL-2.0
/*
 * chain - IORING_OP_BPF operations that pass data along a link chain.
 *
 * What it shows: the third use Ming Lei gives for the opcode, "communicate
 * in IO chain": one BPF request computes something, puts it in a BPF map,
 * and a later request of the same IOSQE_IO_LINK chain reads it. Here the
 * first request computes a checksum of its buffer 1 and the second checks
 * that its own buffer 1 has the same checksum; on a mismatch it fails with
 * -EBADMSG, which breaks the chain (what follows gets -ECANCELED).
 *
 * Program flags (sqe->bpf_op_flags bits 17-0):
 *   bit 0      0 = COMPUTE, 1 = VERIFY
 *   bits 17-1  chain key: which slot of the map `sums` the pair shares
 * COMPUTE: res = bytes summed (buffer 1 length, at most `max_len`).
 * VERIFY:  res = bytes summed if the sums match (the slot is then freed),
 *          -EBADMSG on a mismatch, -ENOENT if no COMPUTE ran for the key.
 * Buffer 1 must be PLAIN: the program reads it with bpf_probe_read_user()
 * (needs CAP_PERFMON), 8 bytes at a time, FNV-1a 64.
 *
 * Run:   iouring-bpf run chain --count 32
 *        (32 chains COMPUTE(A) -> VERIFY(copy of A) -> NOP, all succeed;
 *        then chains with a corrupted copy: VERIFY fails -EBADMSG and the
 *        NOP is cancelled)
 * Load:  iouring-bpf load chain --id 4
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

#define CHAIN_F_VERIFY		(1U << 0)
#define CHAIN_KEY_SHIFT		1
#define CHAIN_MAX_LEN		4096

const volatile __u32 max_len = CHAIN_MAX_LEN;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1 << 17);
	__type(key, __u32);		/* chain key */
	__type(value, __u64);		/* checksum */
} sums SEC(".maps");

__u64 nr_computed, nr_verified, nr_mismatch, nr_missing, nr_faults;

static __always_inline int checksum(__u64 addr, __u32 len, __u64 *out)
{
	__u64 h = 0xcbf29ce484222325ULL ^ len, w;
	__u32 i, words = len / 8, rem = len % 8;

	for (i = 0; i < CHAIN_MAX_LEN / 8 && i < words; i++) {
		if (bpf_probe_read_user(&w, sizeof(w), (void *)(addr + i * 8)))
			return -EFAULT;
		h = (h ^ w) * 0x100000001b3ULL;
	}
	if (rem) {
		w = 0;
		if (bpf_probe_read_user(&w, rem & 7, (void *)(addr + words * 8)))
			return -EFAULT;
		h = (h ^ w) * 0x100000001b3ULL;
	}
	*out = h;
	return 0;
}

IOU_OP_PREP(chain_prep)
{
	if (iou_bpf_buf1_type(data->opf) != IORING_BPF_BUF_TYPE_PLAIN)
		return -EINVAL;
	return 0;
}

IOU_OP_ISSUE(chain_issue)
{
	__u32 flags = iou_op_flags(data);
	__u32 key = flags >> CHAIN_KEY_SHIFT;
	__u32 len = data->buf1_len;
	__u64 sum, *stored;

	if (len > max_len)
		len = max_len;
	if (len > CHAIN_MAX_LEN)
		len = CHAIN_MAX_LEN;
	if (checksum(data->buf1_addr, len, &sum)) {
		__sync_fetch_and_add(&nr_faults, 1);
		return -EFAULT;
	}

	if (!(flags & CHAIN_F_VERIFY)) {
		if (bpf_map_update_elem(&sums, &key, &sum, BPF_ANY))
			return -ENOSPC;
		__sync_fetch_and_add(&nr_computed, 1);
		iou_op_set_result(data, len);
		return 0;
	}

	stored = bpf_map_lookup_elem(&sums, &key);
	if (!stored) {
		__sync_fetch_and_add(&nr_missing, 1);
		return -ENOENT;
	}
	if (*stored != sum) {
		__sync_fetch_and_add(&nr_mismatch, 1);
		bpf_map_delete_elem(&sums, &key);
		return -EBADMSG;
	}
	bpf_map_delete_elem(&sums, &key);
	__sync_fetch_and_add(&nr_verified, 1);
	iou_op_set_result(data, len);
	return 0;
}

IOU_OP_OPS(chain_ops, 4, chain_prep, chain_issue);

// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_op.bpf.c - IORING_OP_BPF programs that do what a careless or
 * hostile author would: leave struct_ops members out, return anything,
 * write where they should not, and hand the kfuncs NULL, map values, stack
 * memory, or numbers dressed up as pointers (test_hostile, one table row
 * per map below).
 *
 * What this teaches: the verifier only checks a kfunc's pointer argument
 * against the *type* the kfunc declares. uring_bpf_data holds a pointer
 * (file), so it is a BTF object: only the pointer the kernel passed in
 * fits. struct bpf_req_mem_desc holds only scalars, so the verifier treats
 * it as plain memory of that size: stack, map values, and NULL (!) all
 * pass. A kfunc taking such a struct must check for NULL itself.
 *
 * Every map is its own row. test_hostile loads this object once per row
 * with only that row's map created: libbpf then loads just the programs
 * the map uses, so a program the verifier must refuse does not stop the
 * other rows from loading.
 *
 * The programs read their return values and modes from globals that the
 * test sets before each request (prep_ret, issue_ret, res, key, ...), so
 * one program covers every return value.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

int prep_ret, issue_ret, set_res, set_res_on;
int prep_calls, issue_calls, fail_calls, cleanup_calls;
int mc_ret = 1;			/* last io_uring_bpf_req_memcpy() result */
__u32 key;			/* index for the descriptor map lookup */
__u64 bogus_addr = 0x1000;	/* a number the program passes as a pointer */

/* one descriptor, set by user space: { buf_id, offset } */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpf_req_mem_desc);
} descs SEC(".maps");

#define MC_LEN 16

/* ---- the well-behaved members, parametrised ---------------------------- */

SEC("struct_ops/prep_fn")
int BPF_PROG(h_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	prep_calls++;
	return prep_ret;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(h_issue, struct uring_bpf_data *data)
{
	issue_calls++;
	if (set_res_on)
		uring_bpf_set_result(data, set_res);
	return issue_ret;
}

SEC("struct_ops/fail_fn")
void BPF_PROG(h_fail, struct uring_bpf_data *data)
{
	fail_calls++;
}

SEC("struct_ops/cleanup_fn")
void BPF_PROG(h_cleanup, struct uring_bpf_data *data)
{
	cleanup_calls++;
}

/* every member: the return-value rows */
SEC(".struct_ops.link")
struct uring_bpf_ops op_full = {
	.id = 110,
	.prep_fn = (void *)h_prep,
	.issue_fn = (void *)h_issue,
	.fail_fn = (void *)h_fail,
	.cleanup_fn = (void *)h_cleanup,
};

/* ---- members left out --------------------------------------------------- */

SEC(".struct_ops.link")
struct uring_bpf_ops op_no_prep = {
	.id = 111,
	.issue_fn = (void *)h_issue,
	.fail_fn = (void *)h_fail,
	.cleanup_fn = (void *)h_cleanup,
};

SEC(".struct_ops.link")
struct uring_bpf_ops op_no_issue = {
	.id = 112,
	.prep_fn = (void *)h_prep,
	.fail_fn = (void *)h_fail,
	.cleanup_fn = (void *)h_cleanup,
};

SEC(".struct_ops.link")
struct uring_bpf_ops op_no_fail = {
	.id = 113,
	.prep_fn = (void *)h_prep,
	.issue_fn = (void *)h_issue,
	.cleanup_fn = (void *)h_cleanup,
};

SEC(".struct_ops.link")
struct uring_bpf_ops op_no_cleanup = {
	.id = 114,
	.prep_fn = (void *)h_prep,
	.issue_fn = (void *)h_issue,
	.fail_fn = (void *)h_fail,
};

SEC(".struct_ops.link")
struct uring_bpf_ops op_id_only = {
	.id = 115,
};

SEC(".struct_ops.link")
struct uring_bpf_ops op_fail_cleanup_only = {
	.id = 116,
	.fail_fn = (void *)h_fail,
	.cleanup_fn = (void *)h_cleanup,
};

/* ---- writes ------------------------------------------------------------- */

/* the last pdu byte, and every byte before it: allowed */
SEC("struct_ops/prep_fn")
int BPF_PROG(w_pdu_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	__u32 i;

	for (i = 0; i < sizeof(data->pdu); i++)
		data->pdu[i] = i + 1;
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(w_pdu_issue, struct uring_bpf_data *data)
{
	int sum = 0;
	__u32 i;

	for (i = 0; i < sizeof(data->pdu); i++)
		sum += data->pdu[i];
	uring_bpf_set_result(data, sum);	/* 1 + ... + 24 = 300 */
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops op_w_pdu = {
	.id = 117,
	.prep_fn = (void *)w_pdu_prep,
	.issue_fn = (void *)w_pdu_issue,
};

/* one byte past the pdu (offset 64 = sizeof(struct uring_bpf_data)) */
SEC("struct_ops/issue_fn")
int BPF_PROG(w_past_issue, struct uring_bpf_data *data)
{
	*((volatile __u8 *)data + 64) = 1;
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops op_w_past = {
	.id = 118,
	.prep_fn = (void *)h_prep,
	.issue_fn = (void *)w_past_issue,
};

/* reading past the end is refused too */
SEC("struct_ops/issue_fn")
int BPF_PROG(r_past_issue, struct uring_bpf_data *data)
{
	return *((volatile __u8 *)data + 64);
}

SEC(".struct_ops.link")
struct uring_bpf_ops op_r_past = {
	.id = 119,
	.prep_fn = (void *)h_prep,
	.issue_fn = (void *)r_past_issue,
};

/* read-only fields of uring_bpf_data */
SEC("struct_ops/issue_fn")
int BPF_PROG(w_opf_issue, struct uring_bpf_data *data)
{
	*(volatile __u32 *)&data->opf = 0;
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops op_w_opf = {
	.id = 120,
	.prep_fn = (void *)h_prep,
	.issue_fn = (void *)w_opf_issue,
};

SEC("struct_ops/issue_fn")
int BPF_PROG(w_buf1_issue, struct uring_bpf_data *data)
{
	*(volatile __u64 *)&data->buf1_addr = 0xffff888000000000ULL;
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops op_w_buf1 = {
	.id = 121,
	.prep_fn = (void *)h_prep,
	.issue_fn = (void *)w_buf1_issue,
};

SEC("struct_ops/issue_fn")
int BPF_PROG(w_file_issue, struct uring_bpf_data *data)
{
	*(volatile __u64 *)&data->file = 0;
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops op_w_file = {
	.id = 122,
	.prep_fn = (void *)h_prep,
	.issue_fn = (void *)w_file_issue,
};

/* the SQE prep_fn sees is read-only */
SEC("struct_ops/prep_fn")
int BPF_PROG(w_sqe_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	*(volatile __u64 *)&sqe->user_data = 0;
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops op_w_sqe = {
	.id = 123,
	.prep_fn = (void *)w_sqe_prep,
	.issue_fn = (void *)h_issue,
};

/* the io_kiocb behind the data (uring_bpf_data_to_req) is read-only */
extern struct io_kiocb *uring_bpf_data_to_req(struct uring_bpf_data *data)
	__ksym;

SEC("struct_ops/issue_fn")
int BPF_PROG(w_req_issue, struct uring_bpf_data *data)
{
	struct io_kiocb *req = uring_bpf_data_to_req(data);

	req->flags = 0;
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops op_w_req = {
	.id = 124,
	.prep_fn = (void *)h_prep,
	.issue_fn = (void *)w_req_issue,
};

/* ---- io_uring_bpf_req_memcpy(data, dest, src, len) arguments ----------- */

/*
 * Copy MC_LEN bytes from buffer 1 to buffer 2 and complete with the
 * kfunc's result; the macro's body names dst/src as the row wants them.
 */
#define MC_ISSUE(name, DEST, SRC)					\
SEC("struct_ops.s/issue_fn")						\
int BPF_PROG(name, struct uring_bpf_data *data)				\
{									\
	struct bpf_req_mem_desc d = { .buf_id = 2 }, s = { .buf_id = 1 }; \
	int ret;							\
									\
	(void)d;							\
	(void)s;							\
	issue_calls++;							\
	ret = io_uring_bpf_req_memcpy(data, DEST, SRC, MC_LEN);		\
	mc_ret = ret;							\
	if (ret < 0)							\
		return ret;						\
	uring_bpf_set_result(data, ret);				\
	return 0;							\
}

#define MC_OPS(name, __id, issue)					\
SEC(".struct_ops.link")							\
struct uring_bpf_ops name = {						\
	.id = __id,							\
	.prep_fn = (void *)h_prep,					\
	.issue_fn = (void *)issue,					\
}

/* baseline: descriptors on the stack */
MC_ISSUE(mc_stack, &d, &s)
MC_OPS(op_mc_stack, 130, mc_stack);

/* NULL descriptors: the verifier lets them through (scalar-only struct) */
MC_ISSUE(mc_dest_null, NULL, &s)
MC_OPS(op_mc_dest_null, 131, mc_dest_null);

MC_ISSUE(mc_src_null, &d, NULL)
MC_OPS(op_mc_src_null, 132, mc_src_null);

/* a map value, NULL-checked */
SEC("struct_ops.s/issue_fn")
int BPF_PROG(mc_dest_map, struct uring_bpf_data *data)
{
	struct bpf_req_mem_desc s = { .buf_id = 1 };
	struct bpf_req_mem_desc *v;
	__u32 k = 0;
	int ret;

	v = bpf_map_lookup_elem(&descs, &k);
	if (!v)
		return -EINVAL;
	ret = io_uring_bpf_req_memcpy(data, v, &s, MC_LEN);
	mc_ret = ret;
	if (ret < 0)
		return ret;
	uring_bpf_set_result(data, ret);
	return 0;
}
MC_OPS(op_mc_dest_map, 133, mc_dest_map);

/*
 * a map lookup passed on unchecked: with key 0 a valid value, with key 1
 * (past max_entries) NULL at run time
 */
SEC("struct_ops.s/issue_fn")
int BPF_PROG(mc_dest_map_unchecked, struct uring_bpf_data *data)
{
	struct bpf_req_mem_desc s = { .buf_id = 1 };
	__u32 k = key;
	int ret;

	ret = io_uring_bpf_req_memcpy(data, bpf_map_lookup_elem(&descs, &k),
				      &s, MC_LEN);
	mc_ret = ret;
	if (ret < 0)
		return ret;
	uring_bpf_set_result(data, ret);
	return 0;
}
MC_OPS(op_mc_dest_map_unchecked, 134, mc_dest_map_unchecked);

/* a number as the descriptor pointer */
MC_ISSUE(mc_dest_scalar, (struct bpf_req_mem_desc *)bogus_addr, &s)
MC_OPS(op_mc_dest_scalar, 135, mc_dest_scalar);

MC_ISSUE(mc_src_scalar, &d, (struct bpf_req_mem_desc *)bogus_addr)
MC_OPS(op_mc_src_scalar, 136, mc_src_scalar);

/* the request's own pdu (a BTF object, not plain memory) as descriptor */
MC_ISSUE(mc_dest_pdu, (struct bpf_req_mem_desc *)data->pdu, &s)
MC_OPS(op_mc_dest_pdu, 137, mc_dest_pdu);

/* data: anything but the pointer the kernel passed in */
#define MC_DATA(name, __id, DATA)						\
SEC("struct_ops.s/issue_fn")						\
int BPF_PROG(name, struct uring_bpf_data *data)				\
{									\
	struct bpf_req_mem_desc d = { .buf_id = 2 }, s = { .buf_id = 1 }; \
	struct uring_bpf_data *x = (struct uring_bpf_data *)(DATA);	\
									\
	return io_uring_bpf_req_memcpy(x, &d, &s, MC_LEN) < 0 ? -EIO : 0; \
}									\
MC_OPS(op_##name, __id, name)

MC_DATA(mc_data_null, 140, NULL);
MC_DATA(mc_data_stack, 141, &d);
MC_DATA(mc_data_scalar, 142, bogus_addr);

SEC("struct_ops.s/issue_fn")
int BPF_PROG(mc_data_map, struct uring_bpf_data *data)
{
	struct bpf_req_mem_desc d = { .buf_id = 2 }, s = { .buf_id = 1 };
	__u32 k = 0;
	void *v = bpf_map_lookup_elem(&descs, &k);

	if (!v)
		return 0;
	return io_uring_bpf_req_memcpy(v, &d, &s, MC_LEN) < 0 ? -EIO : 0;
}
MC_OPS(op_mc_data_map, 143, mc_data_map);

/* the other kfuncs' data argument */
SEC("struct_ops/issue_fn")
int BPF_PROG(setres_null, struct uring_bpf_data *data)
{
	uring_bpf_set_result(NULL, 1);
	return 0;
}
MC_OPS(op_setres_null, 144, setres_null);

SEC("struct_ops/issue_fn")
int BPF_PROG(to_req_null, struct uring_bpf_data *data)
{
	return uring_bpf_data_to_req(NULL) ? 0 : -EIO;
}
MC_OPS(op_to_req_null, 145, to_req_null);

/* memcpy from a non-sleepable issue_fn, and from a sleepable prep_fn */
SEC("struct_ops/issue_fn")
int BPF_PROG(mc_nonsleepable, struct uring_bpf_data *data)
{
	struct bpf_req_mem_desc d = { .buf_id = 2 }, s = { .buf_id = 1 };
	int ret;

	ret = io_uring_bpf_req_memcpy(data, &d, &s, MC_LEN);
	mc_ret = ret;
	if (ret < 0)
		return ret;
	uring_bpf_set_result(data, ret);
	return 0;
}
MC_OPS(op_mc_nonsleepable, 146, mc_nonsleepable);

SEC("struct_ops.s/prep_fn")
int BPF_PROG(mc_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	struct bpf_req_mem_desc d = { .buf_id = 2 }, s = { .buf_id = 1 };

	mc_ret = io_uring_bpf_req_memcpy(data, &d, &s, MC_LEN);
	return mc_ret < 0 ? mc_ret : 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops op_mc_in_prep = {
	.id = 147,
	.prep_fn = (void *)mc_prep,
	.issue_fn = (void *)h_issue,
};

/*
 * t_fixes.h's probe of patch 0033: the kfunc called by a sleepable
 * program inside bpf_rcu_read_lock(). 0033 makes the kfunc sleepable
 * for sleepable programs, so the verifier refuses this; the kfunc as
 * posted carries no flag and it loads. Never attached.
 */
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

SEC("struct_ops.s/issue_fn")
int BPF_PROG(mc_sleepable_in_rcu, struct uring_bpf_data *data)
{
	struct bpf_req_mem_desc d = { .buf_id = 2 }, s = { .buf_id = 1 };
	int ret;

	bpf_rcu_read_lock();
	ret = io_uring_bpf_req_memcpy(data, &d, &s, MC_LEN);
	bpf_rcu_read_unlock();
	return ret < 0 ? ret : 0;
}
MC_OPS(op_mc_sleepable_in_rcu, 148, mc_sleepable_in_rcu);

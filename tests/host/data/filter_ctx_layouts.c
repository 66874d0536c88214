/*
 * Made-up layouts of struct io_uring_bpf_ctx, for
 * tests/host/test_filter_compiler: compiled with clang -g -target bpf
 * -DLAYOUT=N, the object's BTF is given to `iouring-bpf filter --btf`.
 *   1: a future kernel with a field before the payload (it moves by 8)
 *   2: an older kernel whose payload has no connect member
 *   3: a kernel whose connect.port straddles two 32-bit words
 *   4: a kernel whose socket payload has a fourth field (16 bytes): the
 *      stock 7.2.13 fills 12, so it refuses such a program (-EMSGSIZE);
 *      tests/filter/test_sandbox tries that (built by tests/Makefile)
 */
struct io_uring_bpf_ctx {
	unsigned long long user_data;
	unsigned char opcode;
	unsigned char sqe_flags;
	unsigned char pdu_size;
	unsigned char pad[5];
#if LAYOUT == 1
	unsigned long long future;
#endif
	union {
		struct {
			unsigned int family;
			unsigned int type;
			unsigned int protocol;
#if LAYOUT == 4
			unsigned int future;
#endif
		} socket;
		struct {
			unsigned long long flags;
			unsigned long long mode;
			unsigned long long resolve;
		} open;
#if LAYOUT != 2
		struct {
			unsigned int family;
#if LAYOUT == 3
			unsigned char odd[3];
#endif
			unsigned short port;
			unsigned char pad[2];
			union {
				unsigned int v4_addr;
				unsigned char v6_addr[16];
			};
		} __attribute__((packed)) connect;
#endif
	};
};

struct io_uring_bpf_ctx ctx;

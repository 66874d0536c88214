#!/bin/sh
# demo/tour.sh: a short tour of iouring-bpf, run inside the VM by `make demo`
# (kernel/vm-run -- demo/tour.sh). It shows what the kernel supports, the
# program collection, and one run of each kind of program. Exits non-zero if
# any step fails.
set -e
cli=${IOURING_BPF_CLI:-build/iouring-bpf}

step() {
	printf '\n\033[1m$ iouring-bpf %s\033[0m\n' "$*"
	"$cli" "$@"
}

echo "iouring-bpf tour on $(uname -sr) ($(nproc) CPU(s), QEMU TCG)"
step probe
step list
# An IORING_OP_BPF operation: copy between the request's two buffers.
step run memcpy --count 64
# Error injection for tests: fail every 10th request with EIO.
step run errinject --count 100 --set mode=1 --set nth=10
# A loop program: 10000 sequential NOPs issued from BPF in one io_uring_enter.
step run nop-chain --count 10000 --depth 1
# A waiting policy io_uring's uapi can't express.
step run batch-wait --count 64 --set batch=8
printf '\ntour: every step passed\n'

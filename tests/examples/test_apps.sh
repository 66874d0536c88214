#!/bin/sh
# The two applications of libiouring-bpf in examples/, built on the host
# against a staged `make install` with pkg-config (make -C examples), run
# in the VM: attach_loop puts the built-in nop-chain on its own ring and
# checks every NOP completed in one io_uring_enter(); attach_own registers
# its own object (rot13.bpf.o) and uses the op on its own ring. A kernel
# without the feature makes an app exit 77: that part is a SKIP.
# kernels: ours stock
loop=build/examples/attach_loop
own=build/examples/attach_own
[ -x "$loop" ] && [ -x "$own" ] && [ -f examples/rot13.bpf.o ] || {
	echo "FAIL: examples not built (make -C examples)"; exit 1; }
ran=0

out=$("$loop" 5000); rc=$?
echo "attach_loop: $out"
case $rc in
0) case "$out" in *"completed 5000 of 5000 NOPs"*) ran=$((ran + 1)) ;;
   *) echo "FAIL: attach_loop said: $out"; exit 1 ;; esac ;;
77) echo "attach_loop: this kernel has no loop hook" ;;
*) echo "FAIL: attach_loop exited $rc"; exit 1 ;;
esac

out=$("$own" examples/rot13.bpf.o "hello, io_uring"); rc=$?
echo "attach_own: $out"
case $rc in
0) [ "$out" = 'op 9: res=15 out="hello, io_uring"' ] ||
	{ echo "FAIL: attach_own said: $out"; exit 1; }
   ran=$((ran + 1)) ;;
77) echo "attach_own: this kernel has no IORING_OP_BPF" ;;
*) echo "FAIL: attach_own exited $rc"; exit 1 ;;
esac
# the op went with the process: nothing is left registered
build/iouring-bpf show | grep -q "rot13" && { echo "FAIL: rot13 still attached"; exit 1; }

[ $ran -gt 0 ] || { echo "neither feature on this kernel"; exit 77; }
echo "ok: $ran of 2 applications ran"

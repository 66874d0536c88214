#!/bin/sh
# The README's worked example, end to end in the VM: load a user's own
# .bpf.o with `iouring-bpf load`, use the op from a separate liburing
# program, unload, and check the op is gone.
cli=build/iouring-bpf
app=build/examples/use_op
[ -x "$app" ] && [ -f examples/rot13.bpf.o ] || {
	echo "examples not built (make -C examples)"; exit 1; }
"$cli" probe >/dev/null 2>&1
[ $? -eq 3 ] && { echo "kernel lacks IORING_OP_BPF"; exit 77; }

fail() { echo "FAIL: $*"; "$cli" unload 9 >/dev/null 2>&1; exit 1; }

"$cli" load examples/rot13.bpf.o --id 9 || fail "load exited $?"
out=$("$app" 9 "hello, io_uring") || fail "use_op exited $?: $out"
echo "$out"
[ "$out" = 'res=15 out="hello, io_uring"' ] || fail "unexpected: $out"
# prep_fn refuses a buffer 1 longer than buffer 2 (255 bytes)
long=$(printf '%0300d' 0)
"$app" 9 "$long" >/dev/null 2>&1 && fail "a 300-byte text was accepted"
"$cli" unload 9 || fail "unload exited $?"
out=$("$app" 9 again)
[ $? -ne 0 ] || fail "op 9 still works after unload"
case "$out" in *res=-95*) ;; *) fail "after unload: $out (want -EOPNOTSUPP)";; esac
echo "ok: load, use from another process, unload"

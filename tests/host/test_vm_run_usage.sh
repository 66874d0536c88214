#!/bin/bash
# kernel/vm-run rejects bad arguments with a usage error (exit 2) before it
# builds or boots anything.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VMRUN=$ROOT/kernel/vm-run
fail=0
usage_error() {	# usage_error ARGS...
	local rc=0 err
	err=$(timeout 20 "$VMRUN" "$@" 2>&1 >/dev/null) || rc=$?
	if [ $rc != 2 ] || ! grep -q "usage:" <<<"$err"; then
		echo "FAIL: vm-run $*: exit $rc, expected 2 with a usage message"; echo "$err" | head -5; fail=1
	else
		echo "ok: vm-run $* -> usage error"
	fi
}
usage_error
usage_error --
usage_error --bogus -- true
usage_error true
usage_error --timeout -- true
usage_error --timeout 0 -- true
usage_error --timeout abc -- true
usage_error --cpus x -- true
usage_error --mem lots -- true
usage_error --scratch /nonexistent/dir -- true
usage_error --kernel
usage_error --initrd
usage_error --stock --debug -- true
usage_error --stock --kernel /boot/vmlinuz -- true
usage_error --stock --initrd /dev/null -- true
IOURING_BPF_TCG_THREAD=many usage_error -- true
rc=0; "$VMRUN" --help >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: --help: exit $rc"; fail=1; }
exit $fail

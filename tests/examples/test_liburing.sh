#!/bin/bash
# test-timeout: 1800
# examples/attach_liburing (built on the host by make -C examples, against
# the staged library and the system's liburing: Debian 12's 2.3) attaches
# nop-chain to its own ring through iouring-bpf/liburing.h, over the ring
# flags the loop hook takes: every combination of NO_SQARRAY, SQE128 and
# CQE32 on a SINGLE_ISSUER|DEFER_TASKRUN ring, each with one of CQSIZE,
# SUBMIT_ALL, COOP_TASKRUN|TASKRUN_FLAG, CLAMP; a liburing ring attached by
# fd alone (the layout read from the kernel); CQE_MIXED/SQE_MIXED where the
# kernel has them (Linux 6.18+/6.19+: stock 7.2, not ours). For each run:
# nop-chain completed and issued N NOPs with no error (it checks every
# CQE's user_data, so a wrong SQE or CQE size or SQ array shows), the SQ
# and CQ heads the application maps moved by N (SQ_REWIND: the SQ head and
# tail stay 0), and a NOP the application submits after detach completes;
# SQ_REWIND rings (Linux 7.0+: stock 7.2, not ours) by the helper and by fd. Then what must fail: a layout without
# SQE128/CQE32 given for such a ring (the program sees its NOPs out of
# order), a NO_SQARRAY ring made by a liburing older than 2.6 (the helper
# refuses it, USAGE), IOPOLL and no DEFER_TASKRUN (the hook refuses them).
# kernels: ours stock
app=build/examples/attach_liburing
[ -x "$app" ] || { echo "FAIL: $app not built (make -C examples)"; exit 1; }
n=1000
fails=0 ran=0

# run FLAGS [OPTIONS]: attach_liburing must pass every check
run() {
	local flags=$1 out rc sqw=$n
	shift
	# on an SQ_REWIND ring the SQ head and tail stay 0
	case ",$flags," in *,sq-rewind,*) sqw=0 ;; esac
	out=$("$app" -f "$flags" "$@" $n 2>&1); rc=$?
	if [ $rc = 77 ]; then
		echo "$out"
		echo "not run: no loop hook, or [$flags] unknown to this kernel"
		return 77
	fi
	case "$rc:$out" in
	0:*"completed $n of $n NOPs, issued $n, errors 0"*"SQ head $sqw tail $sqw, CQ head $n tail $n"*"after detach: a NOP from "*": res 0"*)
		echo "ok [$flags $*]: ${out%%$'\n'*}"
		ran=$((ran + 1)) ;;
	*)	echo "FAIL [$flags $*] (exit $rc):"; echo "$out"
		fails=$((fails + 1)) ;;
	esac
	# a liburing ring needs the resync (not SQ_REWIND: its tail stays 0)
	case "$sqw:$out" in 0:*) ;;
	*"ring by liburing, attached through the helper"*)
		case "$out" in *"copy was stale"*) ;;
		*) echo "FAIL [$flags]: liburing's SQ copy was not stale after the program ran"
		   fails=$((fails + 1)) ;; esac ;;
	esac
	return 0
}

# (each run loads nop-chain: on the debug kernel under TCG 30 to 90 s a
# load, so the whole test takes minutes there)

# refused FLAGS STATUS PATTERN [OPTIONS]: must exit STATUS saying PATTERN
refused() {
	local flags=$1 want=$2 pat=$3 out rc
	shift 3
	out=$("$app" -f "$flags" "$@" 100 2>&1); rc=$?
	case "$rc:$out" in
	"$want:"*$pat*)
		echo "ok [$flags $*] refused (exit $rc): $(grep -m1 -- "$pat" <<<"$out")" ;;
	*)	echo "FAIL [$flags $*]: expected exit $want and '$pat', got exit $rc:"
		echo "$out"
		fails=$((fails + 1)) ;;
	esac
}

first=1 extra=(cqsize submit-all coop-taskrun,taskrun-flag clamp)
i=0
for sq in "" nosqarray,; do
	for sqe in "" sqe128,; do
		for cqe in "" cqe32,; do
			run "$sq$sqe$cqe${extra[i % 4]}"
			if [ $? = 77 ] && [ $first = 1 ]; then
				echo "this kernel has no loop hook"; exit 77
			fi
			first=0 i=$((i + 1))
		done
	done
done
# the issue's case: a liburing ring with an SQ array, given by fd alone
run "" -F
run sqe128,cqe32 -F
# rings only newer kernels make (exit 77 where the kernel refuses them)
mixed=0
for f in cqe-mixed sqe-mixed,cqe-mixed nosqarray,sqe-mixed; do
	run "$f" && mixed=$((mixed + 1))
done
[ $mixed = 0 ] && echo "note: CQE_MIXED/SQE_MIXED rings not made on this kernel (not tested here)"
# SQ_REWIND rings (Linux 7.0+, with NO_SQARRAY): nop-chain writes its SQEs
# from index 0, the SQ head and tail stay 0; by fd the library reads the
# flag from the kernel. Exit 77 on a kernel without it (ours: bit 20 is
# IORING_SETUP_BPF there), which must then be every one of them.
rewind=0 rewind_skip=0
for f in nosqarray,sq-rewind nosqarray,sq-rewind,sqe128,cqe32,cqsize \
	 "nosqarray,sq-rewind -F" "nosqarray,sq-rewind -d 1"; do
	run $f
	case $? in 0) rewind=$((rewind + 1)) ;; 77) rewind_skip=$((rewind_skip + 1)) ;; esac
done
if [ $rewind != 0 ] && [ $rewind_skip != 0 ]; then
	echo "FAIL: SQ_REWIND rings ran $rewind times and were refused $rewind_skip times"
	fails=$((fails + 1))
fi
[ $rewind = 0 ] && echo "note: no SQ_REWIND on this kernel (not tested here)"

# a wrong layout is seen: nop-chain's last CQE is not its last NOP's
refused cqe32 1 "errors 1" -W
refused sqe128 1 "errors 1" -W
# liburing < 2.6 and NO_SQARRAY: the helper refuses the ring
ver=$(pkg-config --modversion liburing 2>/dev/null)
case "$ver" in
2.[0-5]|2.[0-5].*)
	refused nosqarray 2 "which this liburing does not support" -L ;;
*)	echo "note: liburing ${ver:-unknown}: the refusal of a NO_SQARRAY ring is for liburing < 2.6" ;;
esac
# rings the hook refuses
refused iopoll 1 "cannot take a loop program"
refused no-defer 1 "cannot take a loop program"

[ $fails = 0 ] || { echo "$fails failed"; exit 1; }
echo "ok: $ran rings ran nop-chain ($n NOPs each), liburing $ver"

#!/bin/bash
# `iouring-bpf run FILE.bpf.o` with loop programs written as liburing's
# tests write theirs (nops.bpf.c, cp.bpf.c: no vmlinux.h, the ring's
# geometry in const volatile globals under liburing's names, the work in
# .bss): the NOP loop runs 1000 NOPs with `--set reqs_to_run=1000` and no
# other option; the copy copies a 1 MiB file given as fds and a buffer on
# the command line, identical; bad --set values and a program refused for
# a global left at 0 get one clear error each; the same program, loaded,
# doing nothing is not a success (exit 6) unless --expect-cqes 0 says so.
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
mainline_or_skip run "$FOBJ/nops.bpf.o" --set reqs_to_run=1000

J=$TMP/nops.json
if run_json "$J" run "$FOBJ/nops.bpf.o" --set reqs_to_run=1000; then
	got=$(jget "$J" '(d["enter_ret"], d["cqes_left"], d["globals"]["reqs_done"], d["globals"]["reqs_issued"], d["globals"]["reqs_failed"], d["globals"]["sq_entries"], d["globals"]["cqes_offset"] > 0)')
	[ "$got" = "(0, 0, 1000, 1000, 0, 64, True)" ] &&
		echo "ok: 1000 NOPs in one enter, geometry filled: $got" ||
		fail "run nops: (enter_ret, cqes_left, done, issued, failed, sq_entries, cqes_offset>0) = $got"
fi
expect_exit 0 "reqs_done +1000 +\.bss" -- run "$FOBJ/nops.bpf.o" --set reqs_to_run=1000

# the copy: fds and a buffer made by run, a 1 MiB file
head -c 1048576 /dev/urandom >"$TMP/in"
J=$TMP/cp.json
if run_json "$J" run "$FOBJ/cp.bpf.o" --set input_fd=@"$TMP/in" --set output_fd=@">$TMP/out" \
	--set buf_addr,buf_size=@buf:64K; then
	got=$(jget "$J" '(d["enter_ret"], d["globals"]["cp_result"], d["globals"]["bytes_copied"], d["globals"]["buf_size"])')
	[ "$got" = "(0, 0, 1048576, 65536)" ] &&
		echo "ok: the copy ran in one enter: $got" ||
		fail "run cp: (enter_ret, cp_result, bytes_copied, buf_size) = $got"
	checks=$((checks + 1))
	cmp "$TMP/in" "$TMP/out" && echo "ok: the copy is identical (1 MiB)" ||
		fail "the copy differs from its input"
fi

# --set errors: one line, exit 2, the variable and its section named
expect_exit 2 "no global 'nosuch' .*its globals: .*reqs_to_run" -- run "$FOBJ/nops.bpf.o" --set nosuch=1
expect_exit 2 "reqs_to_run=99999999999 does not fit reqs_to_run \(\.bss, 4-byte signed\)" -- run "$FOBJ/nops.bpf.o" --set reqs_to_run=99999999999
expect_exit 2 "cannot open $TMP/none for reading" -- run "$FOBJ/cp.bpf.o" --set input_fd=@"$TMP/none"
expect_exit 2 "buf_size \(\.bss\) cannot hold an address" -- run "$FOBJ/cp.bpf.o" --set buf_size=@buf:4K

# a global the loader does not know, left at 0: exit 5 names it
expect_exit 5 "were 0 at load.*: region_bytes\. .*--set NAME=VALUE" -- run "$FOBJ/sized.bpf.o"
# with it set, the program runs once and stops having submitted nothing:
# run says so (exit 6) unless told that doing nothing is the point
expect_exit 6 "nothing done: the program stopped" -- run "$FOBJ/sized.bpf.o" --set region_bytes=64
expect_exit 0 "ran +1 " -- run "$FOBJ/sized.bpf.o" --set region_bytes=64 --expect-cqes 0 --expect ran=1
finish

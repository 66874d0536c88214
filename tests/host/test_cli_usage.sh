#!/bin/bash
# iouring-bpf: every usage error exits 2 with a message saying what is
# wrong; --help, -h, help and version exit 0. The common options (-j, -p,
# -v, -h) are taken before and after every command; a short option means
# one thing in every command. Bad inputs (a FIFO, a device, a directory
# as a program; a 100 KB argument) get one line, at once. Runs on any
# kernel: usage is checked before the kernel is asked anything.
source "$(dirname "$0")/cli_lib.sh"

expect_exit 2 "command is needed" --
expect_exit 2 "unknown command 'frobnicate'" -- frobnicate
expect_exit 2 "unrecognized option '--bogus'" -- --bogus
expect_exit 0 "Exit codes: 0 success, 1 failure, 2 usage error, 3 this kernel lacks" -- --help
expect_exit 0 "Exit codes: 0 success" -- -h
expect_exit 0 "Exit codes: 0 success" -- help
expect_exit 0 "Usage: iouring-bpf \[OPTION...\] COMMAND" -- '-?'
expect_exit 0 "^Usage: iouring-bpf \[-" -- --usage
expect_exit 0 "^iouring-bpf [0-9.]+$" -- --version
expect_exit 0 "^iouring-bpf [0-9.]+$" -- -V
expect_exit 0 "^iouring-bpf [0-9.]+$" -- version
expect_exit 0 "^libbpf [0-9]+\.[0-9]+ \((system|kernel source)\)$" -- version
expect_exit 2 "version takes no arguments" -- version extra
expect_exit 2 "unknown command 'frob'" -- help frob
expect_exit 2 "help takes one COMMAND at most" -- help run load
for cmd in list probe load unload show run bench filter sandbox version; do
	expect_exit 0 "Usage: iouring-bpf $cmd" -- $cmd --help
	expect_exit 0 "Usage: iouring-bpf $cmd" -- $cmd -h
	expect_exit 0 "Usage: iouring-bpf $cmd" -- help $cmd
done
for cmd in list probe load unload show run bench filter version; do
	# every argp command lists the common options
	expect_exit 0 "-p, --pretty" -- $cmd --help
	expect_exit 0 "--version" -- $cmd --usage
done
# the common options before the command and after it
expect_exit 0 '^\{"programs": ' -- -j list
expect_exit 0 '^\{"programs": ' -- list -j
expect_exit 0 '^\{$' -- -p list
expect_exit 0 '^\{$' -- list --pretty
expect_exit 0 '^\{"programs": ' -- -v list --json
# argp's own messages are ours: each names the word
expect_exit 2 "option '--count' needs a value \(N\)" -- run nop --count
expect_exit 2 "option '-c' needs a value" -- run nop -c
expect_exit 2 "option '--json' takes no value" -- list --json=yes
expect_exit 2 "invalid option -- 'q' \(in '-jq'\)" -- list -jq
expect_exit 2 "option '--ver' is ambiguous" -- list --ver
expect_exit 2 "try .iouring-bpf run --help'" -- run nop --bogus

# one meaning per short option: -r is --ring (load, filter), bench's
# --runs is -R; -t is run's --timeout, bench's --trace-marks is -T; -p is
# --pretty, bench's --prog has no short form and sandbox's --policy is -P
expect_exit 2 "--ring wants PID:FD" -- load batch-wait -r 12
expect_exit 2 "--runs must be an integer in 1..50" -- bench nops -R 0
expect_exit 2 "invalid option -- 'r'" -- bench nops -r 3
expect_exit 2 "--timeout must be an integer in 1..3600" -- run nop-chain -t 0
expect_exit 2 "--policy POLICY is needed" -- sandbox -p -- true
expect_exit 2 "option '-P' needs a value" -- sandbox -P

# list / probe / show take no arguments
expect_exit 2 "list takes no arguments" -- list extra
expect_exit 2 "probe takes no arguments" -- probe extra
expect_exit 2 "show takes no arguments" -- show extra
expect_exit 2 "unrecognized option|invalid option" -- list --bogus

# load
expect_exit 2 "which program" -- load
expect_exit 2 "load takes one program" -- load nop memcpy
expect_exit 2 "unknown program 'nosuch'" -- load nosuch
expect_exit 2 "unknown program '/nonexistent/x.bpf.o'" -- load /nonexistent/x.bpf.o
echo "not an ELF file" >"$TMP/junk.bpf.o"
expect_exit 2 "cannot open the BPF object" -- load "$TMP/junk.bpf.o"
expect_exit 2 "^iouring-bpf load: run with -v for libbpf's messages$" -- load "$TMP/junk.bpf.o"
expect_exit 2 "--id must be an integer in 0..255" -- load nop --id 256
expect_exit 2 "--id must be an integer in 0..255" -- load nop --id -1
expect_exit 2 "--id must be an integer" -- load nop --id abc
expect_exit 2 "--ring wants PID:FD" -- load batch-wait --ring 12
expect_exit 2 "--ring PID must be an integer" -- load batch-wait --ring x:3
expect_exit 2 "--ring FD must be an integer" -- load batch-wait --ring 1:y
expect_exit 2 "is an IORING_OP_BPF op.*--ring is for loop programs" -- load nop --ring 1:3
expect_exit 2 "is a loop program: it attaches to one ring" -- load batch-wait
expect_exit 2 "--id is for IORING_OP_BPF ops" -- load batch-wait --ring 1:3 --id 4
expect_exit 2 "nop has no parameter 'nosuch'" -- load nop --set nosuch=1
expect_exit 2 "expected NAME=VALUE" -- load memcpy --set max_len
expect_exit 2 "expected an integer" -- load memcpy --set max_len=abc
expect_exit 2 "max_len=99999999999 does not fit max_len \(\.rodata, 4-byte unsigned\)" -- load memcpy --set max_len=99999999999
expect_exit 2 "--name must be a plain name" -- load nop --name a/b
expect_exit 2 "--name must be a plain name" -- load nop --name a.b

# run
expect_exit 2 "which program" -- run
expect_exit 2 "no built-in program 'nosuch'" -- run nosuch
# run's ring options and assertions: checked before the kernel is asked
expect_exit 2 "no ring flag 'bogus'; the names: cqsize,.*,sq-rewind" -- run nop-chain --ring-flags bogus
expect_exit 2 "mixes NAME with \+NAME/-NAME" -- run nop-chain --ring-flags -cqsize,single-issuer
expect_exit 2 "an empty name" -- run nop-chain --ring-flags ''
expect_exit 2 "sq-rewind needs no-sqarray" -- run nop-chain --ring-flags single-issuer,defer-taskrun,sq-rewind
expect_exit 2 "--sq-entries must be an integer in 1..32768" -- run nop-chain --sq-entries 0
expect_exit 2 "--cq-entries 8 is smaller than --sq-entries 64" -- run nop-chain --sq-entries 64 --cq-entries 8
expect_exit 2 "--expect wants NAME=VALUE, got 'done'" -- run nop-chain --expect done
expect_exit 2 "--expect-cqes must be an integer" -- run nop-chain --expect-cqes -1
expect_exit 2 "--expect and --expect-cqes are for FILE.bpf.o" -- run nop-chain --expect done=1
expect_exit 2 "are for loop programs" -- run nop --ring-flags +sqe128
expect_exit 0 "--ring-flags=LIST.*" -- run --help
expect_exit 0 "6 +nothing done" -- --help
expect_exit 2 "--count must be an integer" -- run nop --count -1
expect_exit 2 "--count must be an integer" -- run nop --count lots
# a parameter's range (progs/NAME/unit.c) holds for its option and --set
expect_exit 2 "nop-chain: depth=0 is out of range: depth takes 1..4096" -- run nop-chain --depth 0
expect_exit 2 "nop-chain: depth=0 is out of range: depth takes 1..4096" -- run nop-chain --set depth=0
# the library names the problem, the CLI its command (report_error())
expect_exit 2 "depth takes 1\.\.4096 \(.*\) \(see \`iouring-bpf list\`\)$" -- run nop-chain --depth 0
expect_exit 2 "nop-chain: depth=4097 is out of range" -- run nop-chain --depth 4097
expect_exit 2 "nop-chain: depth=4097 is out of range" -- run nop-chain --set depth=4097
expect_exit 2 "nop-chain: depth=0 is out of range" -- load nop-chain --ring $$:0 --set depth=0
expect_exit 2 "--depth must be an integer" -- run nop-chain --depth -1
expect_exit 2 "errinject: prob_pct=101 is out of range: prob_pct takes 0..100" -- run errinject --set prob_pct=101
expect_exit 2 "errinject: mode=4 is out of range: mode takes 0..3" -- load errinject --id 3 --set mode=4
expect_exit 2 "copy: block=0 is out of range" -- run copy --set block=0
expect_exit 2 "cq-stats: wait_nr=0 is out of range" -- run cq-stats --set wait_nr=0
expect_exit 2 "has no queue depth" -- run nop --depth 3
# --count: the requests a workload completes; copy has none to choose
expect_exit 2 "copy takes no --count" -- run copy --count 5
expect_exit 2 "batch-wait: --count at most 256" -- run batch-wait --count 300
expect_exit 2 "chain: --count at most 200000" -- run chain --count 200001
expect_exit 2 "--id is for IORING_OP_BPF ops" -- run nop-chain --id 3
expect_exit 2 "nop-chain has no parameter 'bogus'" -- run nop-chain --set bogus=1
expect_exit 2 "does not fit" -- run nop-chain --set depth=-5
expect_exit 2 "run takes one program" -- run nop memcpy
expect_exit 2 "its parameters are numbers" -- run nop-chain --set nr=@/etc/hostname
expect_exit 2 "--timeout is for FILE.bpf.o" -- run nop-chain --timeout 3
expect_exit 2 "--timeout must be an integer in 1..3600" -- run nop-chain --timeout 0
# run FILE / load FILE: a loop object written elsewhere (tests/foreign)
NOPS=$ROOT/build/tests/foreign/nops.bpf.o
if [ -f "$NOPS" ]; then
	expect_exit 2 "--count and --depth are for built-in programs" -- run "$NOPS" --count 3
	expect_exit 2 "resources .* are made in this process" -- load "$NOPS" --ring 1:3 --set x=@/etc/hostname
	expect_exit 2 "bad --set 'x\[1=2': expected NAME=VALUE, NAME\[I\]=VALUE" -- run "$NOPS" --set 'x[1=2'
fi

# bad inputs: one line, at once, no hang
mkfifo "$TMP/fifo"
expect_exit 2 "fifo is a FIFO, not a BPF object" -- load "$TMP/fifo"
expect_exit 2 "fifo is a FIFO, not a loop program's .bpf.o" -- run "$TMP/fifo"
expect_exit 2 "fifo is a FIFO, not a policy file" -- filter check "$TMP/fifo"
expect_exit 2 "fifo is a FIFO, not a policy file" -- sandbox --policy "$TMP/fifo" -- true
expect_exit 2 "fifo is a FIFO, not a BTF file" -- filter check no-network --btf "$TMP/fifo"
expect_exit 2 "/dev/null is a character device, not a BPF object" -- load /dev/null
expect_exit 2 "/dev/zero is a character device" -- run /dev/zero
expect_exit 2 "^iouring-bpf load: /tmp is a directory, not a BPF object" -- load /tmp
expect_exit 2 "/tmp is a directory" -- run /tmp
if [ -e /dev/loop0 ] && [ -b /dev/loop0 ]; then
	expect_exit 2 "is a block device" -- load /dev/loop0
fi
# a FIFO must not be opened: a writer-less FIFO would block the open
for cmd in load run; do
	checks=$((checks + 1))
	timeout 10 "$CLI" $cmd "$TMP/fifo" >/dev/null 2>&1
	if [ $? = 124 ]; then
		echo "FAIL: $cmd FIFO hangs"; fails=$((fails + 1))
	fi
done
LONG=$(head -c 100000 /dev/zero | tr '\0' a)
for args in "$LONG" "load $LONG" "run $LONG" "run nop --count $LONG" "unload $LONG" \
	"bench $LONG" "filter $LONG" "load nop --set $LONG" "help $LONG" "run nop --$LONG"; do
	checks=$((checks + 1))
	# shellcheck disable=SC2086
	out=$("$CLI" $args 2>&1) && rc=0 || rc=$?
	if [ "$rc" != 2 ] || [ "$(wc -l <<<"$out")" -gt 3 ] || [ "${#out}" -gt 1200 ]; then
		echo "FAIL: iouring-bpf ${args:0:20}...: exit $rc, ${#out} bytes in $(wc -l <<<"$out") lines (want 2, one short message)"
		echo "${out:0:300}" | sed 's/^/    /'
		fails=$((fails + 1))
	fi
done
expect_exit 2 "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\.\.\.\(100000 bytes\)'" -- run "$LONG"
# every option is read before any requirement is checked: the wrong
# option is named, not the missing one
expect_exit 2 "--id is for IORING_OP_BPF ops" -- load nop-chain --id 5
expect_exit 2 "--id is for IORING_OP_BPF ops" -- load nop-chain --id 5 --set nr=3
expect_exit 2 "--count must be an integer" -- run nop-chain --count x --timeout 0

# a write error is a failure (exit 1) with a message, whatever the command
if [ -w /dev/full ]; then
	for args in "list --json" "list" "version" "--help" "help run" "filter list" "-j version"; do
		checks=$((checks + 1))
		# shellcheck disable=SC2086
		err=$("$CLI" $args 2>&1 >/dev/full) && rc=0 || rc=$?
		if [ "$rc" != 1 ] || ! grep -q "cannot write the output: No space left on device" <<<"$err"; then
			echo "FAIL: iouring-bpf $args >/dev/full: exit $rc, want 1 and a message: $err"
			fails=$((fails + 1))
		fi
	done
fi

# hints name source-tree commands only when the binary runs from the tree
if ! host_has_features; then
	expect_exit 3 "make kernel; kernel/vm-run" -- probe
	expect_exit 3 "from the source tree: make kernel; kernel/vm-run" -- run nop
	mkdir -p "$TMP/bin"
	cp "$CLI" "$TMP/bin/iouring-bpf"
	for args in "probe" "run nop" "run nop-chain" "load nop" "filter probe" "bench nops"; do
		checks=$((checks + 1))
		# shellcheck disable=SC2086
		out=$("$TMP/bin/iouring-bpf" $args 2>&1)
		if grep -qE "make kernel|vm-run|build/iouring-bpf|make bench" <<<"$out"; then
			echo "FAIL: installed iouring-bpf $args names a source-tree command:"
			grep -E "make kernel|vm-run|build/|make bench" <<<"$out" | sed 's/^/    /'
			fails=$((fails + 1))
		fi
	done
	CLI=$TMP/bin/iouring-bpf expect_exit 3 "then check it with: iouring-bpf probe" -- probe
fi

# unload
expect_exit 2 "what to unload" -- unload
expect_exit 2 "unload takes one argument" -- unload a b
expect_exit 2 "is not a name" -- unload ../x
expect_exit 2 "is not a name" -- unload a/b

finish

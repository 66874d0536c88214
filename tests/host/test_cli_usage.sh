#!/bin/bash
# iouring-bpf: every usage error exits 2 with a message saying what is
# wrong; --help exits 0. Runs on any kernel: usage is checked before the
# kernel is asked anything.
source "$(dirname "$0")/cli_lib.sh"

expect_exit 2 "command is needed" --
expect_exit 2 "unknown command 'frobnicate'" -- frobnicate
expect_exit 2 "unrecognized option|invalid option" -- --bogus
expect_exit 0 "Exit codes: 0 success, 1 failure, 2 usage error, 3 this kernel lacks" -- --help
for cmd in list probe load unload show run; do
	expect_exit 0 "Usage: iouring-bpf $cmd" -- $cmd --help
done

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
expect_exit 2 "--count must be an integer" -- run nop --count -1
expect_exit 2 "--count must be an integer" -- run nop --count lots
expect_exit 2 "--depth must be an integer in 1..4096" -- run nop-chain --depth 0
expect_exit 2 "has no queue depth" -- run nop --depth 3
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

# unload
expect_exit 2 "what to unload" -- unload
expect_exit 2 "unload takes one argument" -- unload a b
expect_exit 2 "is not a name" -- unload ../x
expect_exit 2 "is not a name" -- unload a/b

finish

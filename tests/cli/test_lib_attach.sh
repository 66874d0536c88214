#!/bin/bash
# libiouring-bpf.a in an application: attach a loop program to its own
# ring, an op program from a .bpf.o path, detach; see lib_app.c (built on
# the host by tests/Makefile, linked with the library and libbpf). On a
# stock 7.1+ kernel the loop part runs with the mainline binding and the
# op is refused (no IORING_OP_BPF).
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
need_helper lib_app
"$HELPERS/lib_app" "$ROOT/build/progs/nop.bpf.o"

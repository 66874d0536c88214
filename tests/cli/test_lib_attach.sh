#!/bin/bash
# libiouring-bpf.a in an application: attach a loop program to its own
# ring, an op program from a .bpf.o path, detach; see lib_app.c (built on
# the host by tests/Makefile, linked with the library and libbpf).
source "$(dirname "$0")/lib.sh"
feature_or_skip
need_helper lib_app
"$HELPERS/lib_app" "$ROOT/build/progs/nop.bpf.o"

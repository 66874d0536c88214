# mk/tools.mk: where the project's build products live, for any Makefile.
#
#   include $(dir $(lastword $(MAKEFILE_LIST)))../mk/tools.mk   (from loader/, tests/, ...)
#
# Variables (each can be overridden on the command line or in the
# environment; each including make computes them itself):
#   IOURING_BPF_CACHE  cache root (default /var/cache/iouring-bpf)
#   TOOLS_DIR          $(IOURING_BPF_CACHE)/tools/<key12>, from tools/build-bpftools
#   BPFTOOL            bpftool 7.5 built from the kernel source's tools/
#   LIBBPF_A           static libbpf 1.5
#   LIBBPF_INCLUDE     -I this for <bpf/libbpf.h>, <bpf/bpf_helpers.h>, ...
#   LIBBPF_LDLIBS      what to link after $(LIBBPF_A)
#   VMLINUX_H          the committed vmlinux/vmlinux.h (see `make vmlinux.h`)
#
# Depend on $(BPFTOOL) or $(LIBBPF_A) to have them built on demand (rule
# below; it does not change the including Makefile's default goal).
# Computing TOOLS_DIR costs ~0.5 s (a hash of the kernel tarball, memoised
# once per make that uses it without TOOLS_DIR set). The top-level Makefile
# does not export it: each sub-make computes it when its recipe needs it,
# after `make deps` and `make tools` have run.

ifndef IOURING_BPF_TOOLS_MK
IOURING_BPF_TOOLS_MK := 1

IOURING_BPF_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
IOURING_BPF_CACHE ?= /var/cache/iouring-bpf
export IOURING_BPF_CACHE

# Evaluated at most once, and only when used. The key needs the kernel
# source tarball: on a bare machine it is not there until `make deps` has
# run, so an empty answer is an error here, never a silent -I/include.
# Never export TOOLS_DIR from a make that may run before `make deps`: the
# export expands it when the first recipe starts (see the top Makefile).
TOOLS_DIR ?= $(eval TOOLS_DIR := $(call _iouring_bpf_tools_dir))$(TOOLS_DIR)
_iouring_bpf_tools_dir = $(or $(shell $(IOURING_BPF_ROOT)/tools/build-bpftools \
	--print-dir --no-build 2>/dev/null),$(error mk/tools.mk: cannot locate \
	libbpf/bpftool: tools/build-bpftools --print-dir --no-build failed (is \
	the kernel source installed? run `make deps` as root first, or set TOOLS_DIR)))
BPFTOOL ?= $(TOOLS_DIR)/bin/bpftool
LIBBPF_A ?= $(TOOLS_DIR)/lib/libbpf.a
LIBBPF_INCLUDE ?= $(TOOLS_DIR)/include
LIBBPF_LDLIBS ?= -lelf -lz
VMLINUX_H ?= $(IOURING_BPF_ROOT)/vmlinux/vmlinux.h

_iouring_bpf_saved_goal := $(.DEFAULT_GOAL)
$(BPFTOOL) $(LIBBPF_A) &:
	$(IOURING_BPF_ROOT)/tools/build-bpftools
.DEFAULT_GOAL := $(_iouring_bpf_saved_goal)

endif

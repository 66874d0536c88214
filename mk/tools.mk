# mk/tools.mk: where the project's build products live, for any Makefile.
#
#   include $(dir $(lastword $(MAKEFILE_LIST)))../mk/tools.mk   (from loader/, tests/, ...)
#
# Variables (each can be overridden on the command line or in the
# environment; each including make computes them itself):
#   IOURING_BPF_CACHE  cache root (default /var/cache/iouring-bpf)
#   TOOLS_DIR          $(IOURING_BPF_CACHE)/tools/<key12>, from tools/build-bpftools
#   BPFTOOL            bpftool >= 7.5: the system's, or built from the kernel
#                      source's tools/ (see IOURING_BPF_TOOLS below)
#   LIBBPF_A           static libbpf 1.5 (empty with the system's libbpf)
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
# The distribution's libbpf and bpftool are used when both are new enough
# (libbpf >= 1.5, bpftool >= 7.5: struct_ops ___flavour names and maps not
# created need them); otherwise the ones tools/build-bpftools builds from
# the kernel source (Debian 12 ships libbpf 1.1 and bpftool 7.1).
# IOURING_BPF_TOOLS=system|source forces one; LIBBPF_SOURCE says which was
# taken ("system libbpf X, bpftool Y" or "kernel source ...").
IOURING_BPF_TOOLS ?= auto
_iouring_bpf_ge = $(filter $(2),$(firstword $(shell printf '%s\n%s\n' '$(1)' '$(2)' | sort -V)))
SYS_LIBBPF_VERSION := $(shell pkg-config --modversion libbpf 2>/dev/null)
SYS_BPFTOOL := $(shell command -v bpftool 2>/dev/null)
SYS_BPFTOOL_VERSION := $(if $(SYS_BPFTOOL),$(shell $(SYS_BPFTOOL) version 2>/dev/null | sed -n 's/^bpftool v\([0-9.]*\).*/\1/p'))
_iouring_bpf_sys_ok := $(and $(SYS_LIBBPF_VERSION),$(SYS_BPFTOOL_VERSION),$(call _iouring_bpf_ge,$(SYS_LIBBPF_VERSION),1.5),$(call _iouring_bpf_ge,$(SYS_BPFTOOL_VERSION),7.5))
ifeq ($(IOURING_BPF_TOOLS),system)
# forced: both must be there (an older version is the caller's choice)
ifeq ($(SYS_LIBBPF_VERSION),)
$(error IOURING_BPF_TOOLS=system, but pkg-config finds no libbpf (pkg-config --modversion libbpf): install libbpf-dev >= 1.5, or drop IOURING_BPF_TOOLS=system to build the kernel source's (make tools))
endif
ifeq ($(SYS_BPFTOOL_VERSION),)
$(error IOURING_BPF_TOOLS=system, but there is no bpftool on PATH ($(or $(SYS_BPFTOOL),command -v bpftool finds none)): install bpftool >= 7.5, or drop IOURING_BPF_TOOLS=system to build the kernel source's (make tools))
endif
_iouring_bpf_sys_ok := 1
endif
ifeq ($(IOURING_BPF_TOOLS),source)
_iouring_bpf_sys_ok :=
endif

ifneq ($(_iouring_bpf_sys_ok),)
LIBBPF_SOURCE := system libbpf $(SYS_LIBBPF_VERSION), bpftool $(SYS_BPFTOOL_VERSION)
BPFTOOL ?= $(SYS_BPFTOOL)
LIBBPF_A ?=
LIBBPF_INCLUDE ?= $(shell pkg-config --variable=includedir libbpf)
LIBBPF_LDLIBS ?= $(shell pkg-config --libs libbpf) -lelf -lz
else
LIBBPF_SOURCE = kernel source's libbpf and bpftool ($(TOOLS_DIR); system: libbpf $(or $(SYS_LIBBPF_VERSION),none), bpftool $(or $(SYS_BPFTOOL_VERSION),none), need >= 1.5/7.5)
TOOLS_DIR ?= $(eval TOOLS_DIR := $(call _iouring_bpf_tools_dir))$(TOOLS_DIR)
_iouring_bpf_tools_dir = $(or $(shell $(IOURING_BPF_ROOT)/tools/build-bpftools \
	--print-dir --no-build 2>/dev/null),$(error mk/tools.mk: cannot locate \
	libbpf/bpftool: tools/build-bpftools --print-dir --no-build failed (is \
	the kernel source installed? run `make deps` as root first, or set TOOLS_DIR)))
BPFTOOL ?= $(TOOLS_DIR)/bin/bpftool
LIBBPF_A ?= $(TOOLS_DIR)/lib/libbpf.a
LIBBPF_INCLUDE ?= $(TOOLS_DIR)/include
LIBBPF_LDLIBS ?= -lelf -lz
endif
VMLINUX_H ?= $(IOURING_BPF_ROOT)/vmlinux/vmlinux.h

_iouring_bpf_saved_goal := $(.DEFAULT_GOAL)
ifeq ($(_iouring_bpf_sys_ok),)
$(BPFTOOL) $(LIBBPF_A) &:
	$(IOURING_BPF_ROOT)/tools/build-bpftools
endif
.DEFAULT_GOAL := $(_iouring_bpf_saved_goal)

endif

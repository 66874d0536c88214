# iouring-bpf top-level Makefile.
#
#   make deps          install the Debian packages the project needs (root)
#   make tools         libbpf 1.5 (static) + bpftool 7.5 from the kernel source
#   make kernel        release kernel (kernel/build)
#   make kernel-debug  debug kernel: KASAN, lockdep, kmemleak (kernel/build --debug)
#   make stock-kernel  fetch Debian's stock kernel + build its initramfs
#                      (kernel/fetch-stock; a download, no build)
#   make vmlinux.h     regenerate vmlinux/vmlinux.h from the release kernel's BTF,
#                      or from another BTF file: make vmlinux.h BTF=/sys/kernel/btf/vmlinux
#   make test-prep     build what the tests need (tools, kernel-debug, stock-kernel,
#                      loader, tests)
#   make test          test-prep, then tests/run
#   make demo          the main job: deps, build, boot the kernel, run a tour
#                      (KERNEL_FLAVOUR=debug: on the debug kernel)
#                      (TESTS_ARGS="-t FILTER -v --host-only ..." is passed on)
#   make bench         build the CLI, boot the release kernel once, run every
#                      benchmark (bench/run); results in bench/results/tcg/.
#                      ICOUNT=1: deterministic timing, QEMU -icount
#                      shift=$(ICOUNT_SHIFT) (default 0), in bench/results/icount/;
#                      BENCH_RUNS=R runs per mode (default 5)
#   make install       the CLI, libiouring-bpf (.so, .a) with its headers and
#                      iouring-bpf.pc, the man page (PREFIX, DESTDIR)
#   make uninstall     remove what make install put there (same PREFIX, DESTDIR)
#   make stress        boot the debug kernel once, run iou-stress: op id races,
#                      waits ended from outside, 1000 attach/detach cycles with
#                      slab and kmemleak figures (tests/stress/run; STRESS_*)
#   make fuzz          100,000 random IORING_OP_BPF SQEs in the debug kernel,
#                      then the CLI's parsers under libFuzzer for 60 s on the
#                      host (tests/fuzz/run; FUZZ_SEED, FUZZ_REQUESTS,
#                      FUZZ_CLI_SECONDS)
#   make clean         remove build products in the work tree (not the cache;
#                      the cache is $(IOURING_BPF_CACHE): rm -rf it to start over)
#
# Sub-makes (loader/, tests/, examples/) include mk/tools.mk themselves and
# compute TOOLS_DIR when they start, which is after `deps` and `tools` have
# run. This make must not export TOOLS_DIR and friends: an exported variable
# is expanded when the first recipe starts (before `make deps` on a bare
# machine, when the kernel source that keys the tools is not there yet), and
# an empty TOOLS_DIR used to reach the sub-makes as -I/include.
# So this Makefile does not include mk/tools.mk (its rule names expand
# TOOLS_DIR at parse time); recipes that need bpftool ask for it.
IOURING_BPF_CACHE ?= /var/cache/iouring-bpf
export IOURING_BPF_CACHE

# Targets run in the order written (deps first); each build inside is
# parallel on its own (-j$(JOBS)). Two apt-get runs at once would fail.
.NOTPARALLEL:

# Everything a bare Debian 12 needs to build and test the project, and every
# program the tests and the demo call that a bare Debian 12 lacks (man-db and
# groff-base: tests/host/test_cli_man renders the man pages).
DEB_PACKAGES := build-essential bc bison flex libelf-dev libssl-dev dwarves \
	qemu-system-x86 clang llvm libcap-dev zlib1g-dev libzstd-dev pkg-config \
	cpio xz-utils zstd git gnuplot-nox python3 linux-source-6.12 iproute2 kmod \
	liburing-dev libclang-rt-14-dev man-db groff-base
JOBS ?= $(shell nproc)
BTF ?=
TESTS_ARGS ?=

.PHONY: all deps tools kernel kernel-debug stock-kernel vmlinux.h test-prep test demo bench \
	install uninstall stress fuzz clean

all: tools kernel

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; \
	done); \
	if [ -z "$$missing" ]; then echo "deps: all installed"; exit 0; fi; \
	echo "deps: installing" $$missing; \
	if [ "$$(id -u)" != 0 ]; then echo "deps: run as root (or: apt-get install" $$missing")" >&2; exit 1; fi; \
	export DEBIAN_FRONTEND=noninteractive; \
	apt-get install -y -q --no-install-recommends $$missing || \
		{ apt-get update -q && apt-get install -y -q --no-install-recommends $$missing; }

tools:
	tools/build-bpftools -j$(JOBS)

kernel:
	kernel/build -j$(JOBS)

kernel-debug:
	kernel/build --debug -j$(JOBS)

stock-kernel:
	kernel/fetch-stock

# With BTF unset, the release kernel is built if needed and its vmlinux used.
vmlinux.h: tools
	@set -e; btf='$(BTF)'; \
	if [ -z "$$btf" ]; then btf=$$(kernel/build --print-dir -j$(JOBS))/vmlinux; fi; \
	bpftool=$$(tools/build-bpftools --print-dir)/bin/bpftool; \
	mkdir -p vmlinux; \
	echo "vmlinux.h: $$bpftool btf dump file $$btf format c"; \
	$$bpftool btf dump file "$$btf" format c >vmlinux/vmlinux.h.tmp; \
	mv vmlinux/vmlinux.h.tmp vmlinux/vmlinux.h; \
	wc -l vmlinux/vmlinux.h

# test-prep builds everything the tests use; .ci/run runs it and then
# tests/run itself, so that the summary is the last line of the CI log.
# A stock kernel that cannot be fetched does not stop test-prep: tests/run
# tries again and reports it as FAIL stock/boot, with the reason.
test-prep: deps tools kernel-debug
	@kernel/fetch-stock >/dev/null || \
		echo "test-prep: the stock kernel could not be fetched (above); tests/run will report FAIL stock/boot" >&2
	@if [ -f loader/Makefile ]; then $(MAKE) -C loader; fi
	@if [ -f tests/Makefile ]; then $(MAKE) -C tests; fi
	$(MAKE) -C examples

test: test-prep
	tests/run $(TESTS_ARGS)

# The main job on a bare machine: install, build, boot, tour (demo/tour.sh).
# KERNEL_FLAVOUR=debug tours the debug kernel instead (the one make test
# builds; tests/host/test_fresh_machine.sh uses it to avoid a second build).
KERNEL_FLAVOUR ?= release
demo: deps tools $(if $(filter debug,$(KERNEL_FLAVOUR)),kernel-debug,kernel)
	$(MAKE) -C loader
	kernel/vm-run $(if $(filter debug,$(KERNEL_FLAVOUR)),--debug) -- demo/tour.sh

ICOUNT ?=
ICOUNT_SHIFT ?= 0
BENCH_RUNS ?= 5
bench: deps tools kernel
	bench/run $(if $(filter-out 0 no,$(ICOUNT)),--icount $(ICOUNT_SHIFT)) --runs $(BENCH_RUNS)

# The CLI, libiouring-bpf (.so with soname, .a) + its headers +
# iouring-bpf.pc, the man page; uninstall removes all of it:
#   make install [PREFIX=/usr/local] [DESTDIR=...]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=...]   (the same values)
# No kernel needed: the system's libbpf/bpftool if >= 1.5/7.5, else the
# kernel source's (make tools); the build says which. LIBDIR, INCLUDEDIR,
# BINDIR, MANDIR, PC_RELOCATABLE: loader/Makefile.
PREFIX ?= /usr/local
install:
	$(MAKE) -C loader install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

uninstall:
	$(MAKE) -C loader uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

stress: test-prep
	tests/stress/run

fuzz: test-prep
	tests/fuzz/run

clean:
	@if [ -f loader/Makefile ]; then $(MAKE) -C loader clean; fi
	@if [ -f tests/Makefile ]; then $(MAKE) -C tests clean; fi
	rm -f vmlinux/vmlinux.h.tmp

# gompi build: `make` builds build/ (an install-prefix mirror), `make demo` runs the main
# job, `make test` runs every test, `make bench` compares against Open MPI and MPICH.
SHELL   := /bin/bash
PREFIX  ?= /usr/local
BUILD   := $(CURDIR)/build
GO      ?= go
GOFLAGS ?=
SONAME  := libgompi.so.0
LIBFILE := $(BUILD)/lib/libgompi.so.0.1.0
# Go's c-shared default is -Bsymbolic; -Bno-symbolic after it lets tools interpose MPI_*
# and keeps Fortran sentinels at one address. The version script exports only MPI_/PMPI_.
LIB_LDFLAGS := -extldflags '-Wl,-soname,$(SONAME) -Wl,--version-script=$(CURDIR)/capi/exports.map -Wl,-Bno-symbolic'

GO_SOURCES := $(shell find . -name '*.go' -not -path './build/*' -not -name '*_test.go') go.mod
FORTRAN_GEN := capi/zfortran_gen.c
C_SOURCES  := $(filter-out $(FORTRAN_GEN),$(wildcard capi/*.c capi/*.h include/*.h btl/*/*.c btl/*/*.h))

.PHONY: all build deps demo test bench floors install clean peers header fortran reliability

all: build
build: $(BUILD)/include/mpi.h $(LIBFILE) $(BUILD)/lib/libgompi-mpich-stubs.so $(BUILD)/lib/libgompi-prof.so $(BUILD)/bin/gompirun $(BUILD)/bin/gompitune $(BUILD)/bin/gompi_info $(BUILD)/bin/gompicc \
       $(BUILD)/bin/gompicxx $(BUILD)/bin/gompiexec $(BUILD)/lib/pkgconfig/gompi.pc fortran

deps:
	@$(GO) mod download
	@[ -e /usr/include/rdma/fabric.h ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq libfabric-dev >/dev/null; }

include/mpi.h: $(wildcard abi/*.go cmd/genheader/*.go)
	@if [ -d cmd/genheader ]; then $(GO) run ./cmd/genheader -o include/mpi.h; fi

# Layouts the C fast paths share with Go, generated from the Go definitions
# (committed; a test checks it is fresh).
capi/layout_gen.h: $(wildcard cmd/genlayout/*.go layout/*.go pml/*.go btl/shmring/*.go shmcoll/*.go mpi/layout.go mpi/request.go)
	$(GO) run ./cmd/genlayout -o $@

$(BUILD)/include/mpi.h: include/mpi.h
	@mkdir -p $(BUILD)/include
	cp include/*.h $(BUILD)/include/

# The Fortran bindings of every call capi exports, generated from the abi table.
# One run writes all four files; touched so make sees them all renewed.
$(FORTRAN_GEN) $(BUILD)/fortran/src/mpi.f90 $(BUILD)/fortran/src/mpi_f08.f90 $(BUILD)/fortran/src/f08_shims.c &: \
    $(wildcard abi/*.go cmd/genfortran/*.go) $(C_SOURCES)
	$(GO) run ./cmd/genfortran -capi capi -o $(FORTRAN_GEN) -mod $(BUILD)/fortran/src
	touch $(FORTRAN_GEN) $(BUILD)/fortran/src/*

$(LIBFILE): $(GO_SOURCES) $(C_SOURCES) $(FORTRAN_GEN) capi/exports.map include/mpi.h
	@mkdir -p $(BUILD)/lib
	CGO_CFLAGS="-O2 -g -I$(CURDIR)/include" $(GO) build $(GOFLAGS) -buildmode=c-shared \
	  -ldflags="$(LIB_LDFLAGS)" -o $@ ./capi
	@rm -f $(BUILD)/lib/libgompi.so.0.1.h
	ln -sf libgompi.so.0.1.0 $(BUILD)/lib/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/lib/libgompi.so

# For --mpich-binary: every MPI function MPICH's library exports and gompi's
# does not aborts naming itself (no MPICH here: an empty stub library).
MPICH_LIB ?= $(shell ldconfig -p 2>/dev/null | awk '/libmpich\.so\.12 /{print $$NF; exit}')
$(BUILD)/lib/libgompi-mpich-stubs.so: $(LIBFILE) $(wildcard cmd/genstubs/*.go launcher/foreign.go)
	$(GO) run ./cmd/genstubs -gompi $(LIBFILE) -mpich "$(MPICH_LIB)" -o $(BUILD)/mpich-stubs.c
	gcc -shared -fPIC -O2 -Wall -o $@ $(BUILD)/mpich-stubs.c

# gompirun --profile preloads it: MPI_X wrappers timing PMPI_X, generated
# from the interface table for the calls the library exports. PMPI_ symbols
# stay undefined here (found in libgompi.so at run time), so it never pulls
# the Go runtime into a process that is no MPI program.
$(BUILD)/lib/libgompi-prof.so: $(LIBFILE) $(wildcard cmd/genprof/*.go prof/*.c prof/*.h)
	@mkdir -p $(BUILD)/prof
	$(GO) run ./cmd/genprof -gompi $(LIBFILE) -o $(BUILD)/prof/wrappers.c
	gcc -shared -fPIC -O2 -Wall -I$(CURDIR)/include -I$(CURDIR)/prof -o $@ prof/prof.c $(BUILD)/prof/wrappers.c

$(BUILD)/bin/gompirun: $(GO_SOURCES)
	@mkdir -p $(BUILD)/bin
	$(GO) build $(GOFLAGS) -o $@ ./cmd/gompirun

$(BUILD)/bin/gompitune: $(GO_SOURCES)
	@mkdir -p $(BUILD)/bin
	$(GO) build $(GOFLAGS) -o $@ ./cmd/gompitune

# OSU/IMB outputs to pictures (make bench's, or any user's).
build: $(BUILD)/bin/gompiplot
$(BUILD)/bin/gompiplot: $(wildcard cmd/gompiplot/*.go) go.mod go.sum
	@mkdir -p $(BUILD)/bin
	$(GO) build $(GOFLAGS) -o $@ ./cmd/gompiplot

$(BUILD)/bin/gompiexec: $(BUILD)/bin/gompirun
	ln -sf gompirun $@

# Optional (not built by default): mpiexec and mpirun in build/bin for
# scripts and habits that call the launcher by those names. With build/bin
# first on PATH they shadow other MPIs' launchers.
.PHONY: mpilinks
mpilinks: $(BUILD)/bin/gompirun
	ln -sf gompirun $(BUILD)/bin/mpiexec
	ln -sf gompirun $(BUILD)/bin/mpirun

# gompi_info reports the compiler and flags the library was built with.
$(BUILD)/bin/gompi_info: $(GO_SOURCES)
	@mkdir -p $(BUILD)/bin
	$(GO) build $(GOFLAGS) -ldflags="-X 'main.ccVersion=$$(gcc --version | head -1)' -X 'main.cgoCFlags=-O2 -g -I$(CURDIR)/include' -X 'main.goFlags=$(GOFLAGS)'" -o $@ ./cmd/gompi_info

$(BUILD)/bin/gompicc: scripts/gompicc.in
	@mkdir -p $(BUILD)/bin
	sed -e 's/@CC@/gcc/' -e 's/@NAME@/gompicc/' $< > $@ && chmod +x $@

$(BUILD)/bin/gompicxx: scripts/gompicc.in
	@mkdir -p $(BUILD)/bin
	sed -e 's/@CC@/g++/' -e 's/@NAME@/gompicxx/' $< > $@ && chmod +x $@

$(BUILD)/lib/pkgconfig/gompi.pc: pkg-config/gompi.pc.in
	@mkdir -p $(BUILD)/lib/pkgconfig
	sed -e 's|@PREFIX@|$(BUILD)|' $< > $@

install: build
	mkdir -p $(PREFIX)
	cp -a $(BUILD)/bin $(BUILD)/lib $(BUILD)/include $(PREFIX)/
	sed -e 's|@PREFIX@|$(PREFIX)|' pkg-config/gompi.pc.in > $(PREFIX)/lib/pkgconfig/gompi.pc

include fortran.mk

# Open MPI and MPICH: reference behaviour, ABI checks and benchmark opponents.
peers:
	@if ! command -v mpicc.mpich >/dev/null || ! command -v mpicc.openmpi >/dev/null \
	    || [ ! -x /usr/bin/NPmpich2 ] || [ ! -e /usr/include/rdma/fabric.h ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    openmpi-bin libopenmpi-dev mpich libmpich-dev netpipe-mpich2 libfabric-dev >/dev/null; fi
	@command -v gfortran >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq gfortran >/dev/null; }

demo: build
	@scripts/demo.sh

# A package's whole run may take this long before go test calls it hung: far
# beyond its need (tests/c: about 10 min on an idle 2-core machine, 30 at a
# load of 40); the tests' own deadlines scale (internal/testtime).
TEST_TIMEOUT ?= 60m

test: deps peers build
	$(GO) vet ./...
	$(GO) test -timeout $(TEST_TIMEOUT) ./... 2>&1 | tee $(BUILD)/test.log; exit $${PIPESTATUS[0]}
	@# The Go packages and the Go programs again under the race detector,
	@# whose checkptr catches a pointer advanced past its allocation (the
	@# collector may crash on one when the buffer is Go memory).
	GOFLAGS=-race $(GO) test -timeout $(TEST_TIMEOUT) $$($(GO) list ./... | grep -v /tests/) ./tests/go 2>&1 | tee $(BUILD)/test-race.log; exit $${PIPESTATUS[0]}

# BENCH_QUICK=1: every script's short mode (BENCH_MODE=quick), a smoke test.
ifeq ($(BENCH_QUICK),1)
export BENCH_MODE := quick
endif
bench: deps peers build
	@scripts/bench_osu.sh
	@scripts/bench.sh
	@scripts/bench_coll.sh
	@scripts/bench_fortran.sh
	@scripts/bench_profile.sh
	@scripts/bench_osc.sh
	@scripts/bench_io.sh
	@BENCH_NET_RIG=1 scripts/bench_net.sh

# What the machine allows without any MPI (bare C; docs/performance.md).
floors:
	@scripts/bench_floor.sh

# docs/reliability.md: start-up kills, a small /dev/shm, crash reports, then
# the whole suite beside a CPU hog (long: see the doc).
reliability: build
	$(GO) test -count=1 -v -run 'TestStartupKill|TestSmallDevShm|TestC/crash_' ./tests/c 2>&1 | tee $(BUILD)/reliability.log; exit $${PIPESTATUS[0]}
	@scripts/busy_suite.sh

clean:
	rm -rf $(BUILD)

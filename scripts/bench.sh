#!/usr/bin/env bash
# make bench: the point-to-point benchmark built once against each MPI (gompi,
# Debian's Open MPI, Debian's MPICH), run side by side with 2 ranks bound to
# the two cores, merged into one table with gompi/best-peer ratios.
# BENCH_MODE=quick shortens every run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/build/bench
mkdir -p "$out"
mode=${BENCH_MODE:-full}
arg=""; [ "$mode" = quick ] && arg=quick

build/bin/gompicc -O2 -o "$out/pt2pt_gompi" bench/pt2pt.c
mpicc.openmpi -O2 -o "$out/pt2pt_ompi" bench/pt2pt.c 2>/dev/null
mpicc.mpich -O2 -o "$out/pt2pt_mpich" bench/pt2pt.c 2>/dev/null

run() { # name command...
  local name=$1; shift
  echo "== $name: $*" >&2
  if ! timeout 900 "$@" > "$out/$name.txt" 2> "$out/$name.err"; then
    echo "   $name failed (see $out/$name.err)" >&2
  fi
}
run gompi   build/bin/gompirun -n 2 --bind-to core "$out/pt2pt_gompi" $arg
run openmpi mpirun.openmpi --allow-run-as-root --bind-to core -n 2 "$out/pt2pt_ompi" $arg
run mpich   mpiexec.mpich -n 2 -bind-to core "$out/pt2pt_mpich" $arg

go run ./cmd/benchtable gompi="$out/gompi.txt" openmpi="$out/openmpi.txt" mpich="$out/mpich.txt" | tee "$out/pt2pt.md"

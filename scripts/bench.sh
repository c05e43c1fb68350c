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

. scripts/bench_run.sh
# BENCH_ROUNDS runs of all three, alternating, merged row by row into the
# median (scripts/median_rows.awk says why).
rounds=${BENCH_ROUNDS:-5}
rm -f "$out"/{gompi,openmpi,mpich}_r*.{txt,phase}
for r in $(seq "$rounds"); do
  for impl in $(rotated "$r" gompi openmpi mpich); do
    case $impl in
    gompi) run "$out/gompi_r$r.txt" build/bin/gompirun -n 2 --bind-to core "$out/pt2pt_gompi" $arg ;;
    openmpi) run "$out/openmpi_r$r.txt" mpirun.openmpi --allow-run-as-root --bind-to core -n 2 "$out/pt2pt_ompi" $arg ;;
    mpich) run "$out/mpich_r$r.txt" mpiexec.mpich -n 2 -bind-to core "$out/pt2pt_mpich" $arg ;;
    esac
  done
done
for impl in gompi openmpi mpich; do
  cat "$out"/${impl}_r*.txt | awk -f scripts/median_rows.awk > "$out/$impl.txt"
done

go run ./cmd/benchtable gompi="$out/gompi.txt" openmpi="$out/openmpi.txt" mpich="$out/mpich.txt" | tee "$out/pt2pt.md"
{
  echo
  echo "Cache-line round trip between the two cores before/after each round, ns (bench/floor/core_rtt.c):"
  echo
  phases "$out" "%s" gompi openmpi mpich | sed 's/^/    /'
  scripts/phase_split.sh "$out" "%s" gompi openmpi mpich
} | tee -a "$out/pt2pt.md"

#!/usr/bin/env bash
# Collective benchmark: bench/coll.c built against gompi, Debian's Open MPI and
# Debian's MPICH, run side by side with 2 ranks (bound to the two cores) and 4
# ranks (oversubscribed), merged into tables with gompi/best-peer ratios (and,
# for 4 ranks, gompi/Open MPI: the target is at most 0.5 there).
# BENCH_MODE=quick shortens every run; extra arguments (collective names)
# restrict it, e.g. scripts/bench_coll.sh barrier allreduce; BENCH_ROUNDS (5)
# repeats the whole comparison and reports each row's median.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/build/bench
mkdir -p "$out"
args=("$@")
[ "${BENCH_MODE:-full}" = quick ] && args=(quick "${args[@]}")

build/bin/gompicc -O2 -o "$out/coll_gompi" bench/coll.c
mpicc.openmpi -O2 -o "$out/coll_ompi" bench/coll.c 2>/dev/null
mpicc.mpich -O2 -o "$out/coll_mpich" bench/coll.c 2>/dev/null

. scripts/bench_run.sh
# BENCH_ROUNDS runs of all three, alternating, merged row by row into the
# median (scripts/median_rows.awk says why); each round's figure is already
# the fastest of its timed loops.
rounds=${BENCH_ROUNDS:-5}
rm -f "$out"/coll_*_r*.{txt,phase}
for np in 2 4; do
  if [ "$np" -le "$(nproc)" ]; then
    bind_g=(--bind-to core); bind_o=(--bind-to core); bind_m=(-bind-to core)
  else
    bind_g=(); bind_o=(--bind-to none --oversubscribe); bind_m=()
  fi
  for r in $(seq "$rounds"); do
    for impl in $(rotated "$r" gompi openmpi mpich); do
      case $impl in
      gompi) run "$out/coll_gompi_${np}_r$r.txt" build/bin/gompirun -n $np "${bind_g[@]}" "$out/coll_gompi" "${args[@]}" ;;
      openmpi) run "$out/coll_openmpi_${np}_r$r.txt" mpirun.openmpi --allow-run-as-root "${bind_o[@]}" -n $np "$out/coll_ompi" "${args[@]}" ;;
      mpich) run "$out/coll_mpich_${np}_r$r.txt" mpiexec.mpich -n $np "${bind_m[@]}" "$out/coll_mpich" "${args[@]}" ;;
      esac
    done
  done
  for impl in gompi openmpi mpich; do
    cat "$out"/coll_${impl}_${np}_r*.txt | awk -f scripts/median_rows.awk > "$out/coll_${impl}_$np.txt"
  done
done
for np in 2 4; do
  echo
  echo "### $np ranks"
  echo
  go run ./cmd/benchtable gompi="$out/coll_gompi_$np.txt" openmpi="$out/coll_openmpi_$np.txt" \
    mpich="$out/coll_mpich_$np.txt"
done | tee "$out/coll.md"
{
  echo
  echo "### 4 ranks, gompi / Open MPI (target <= 0.5)"
  echo
  go run ./cmd/benchtable gompi="$out/coll_gompi_4.txt" openmpi="$out/coll_openmpi_4.txt"
  echo
  echo "Cache-line round trip between the two cores before/after each round, ns (bench/floor/core_rtt.c):"
  echo
  for np in 2 4; do phases "$out" "coll_%s_$np" gompi openmpi mpich | sed "s/^/    $np ranks, /"; done
  echo
  echo "### 2 ranks, by phase"
  scripts/phase_split.sh "$out" "coll_%s_2" gompi openmpi mpich
  echo
  echo "### 4 ranks, by phase"
  scripts/phase_split.sh "$out" "coll_%s_4" gompi openmpi
} | tee -a "$out/coll.md"

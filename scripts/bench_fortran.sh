#!/usr/bin/env bash
# make bench: 1-byte ping-pong through the Fortran binding next to the same
# loop in C, 2 ranks bound to the two cores, alternating runs; the Fortran
# call should cost at most 10 ns more one way (one C-to-C call, no extra
# crossing into Go).
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/bench
mkdir -p "$out"
build/bin/gompicc -O2 -o "$out/pingpong_c" bench/pingpong_c.c
build/bin/gompifort -O2 -o "$out/pingpong_f" bench/pingpong_f.f90
rounds=${BENCH_ROUNDS:-3}
: > "$out/pingpong.txt"
for r in $(seq "$rounds"); do
  for p in c f; do
    build/bin/gompirun -n 2 --bind-to core "$out/pingpong_$p" | tee -a "$out/pingpong.txt"
  done
done
awk '/one-way/ { v[$1] = v[$1] " " $NF } END {
  for (k in v) { n = split(v[k], a, " "); asort(a); m[k] = a[int((n + 1) / 2)] }
  printf "Fortran vs C ping-pong, one way (median of %d runs): C %.1f ns, Fortran %.1f ns, +%.1f ns\n", n, m["c"], m["fortran"], m["fortran"] - m["c"]
}' "$out/pingpong.txt" | tee "$out/pingpong.md"

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
median() { grep "^$1 $2" "$out/pingpong.txt" | awk '{print $NF}' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
: > "$out/pingpong.md"
for what in one-way procnull; do
  c=$(median c $what); f=$(median fortran $what)
  printf 'Fortran vs C, %s (median of %s runs): C %s ns, Fortran %s ns, difference %s ns\n' "$what" \
    "$rounds" "$c" "$f" "$(awk -v a="$f" -v b="$c" 'BEGIN {printf "%+.1f", a - b}')" | tee -a "$out/pingpong.md"
done

#!/usr/bin/env bash
# make bench: what gompirun --profile costs. The 1-byte ping-pong
# (bench/pingpong_c.c) with 2 ranks bound to the two cores, alternately
# without and with --profile (the preloaded wrappers time every call), the
# median over BENCH_ROUNDS runs of each, and their ratio. Issue 28 allows a
# few percent on the 1-byte latency; without the flag nothing is preloaded,
# so the plain run is the library's own figure.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/bench
mkdir -p "$out"
build/bin/gompicc -O2 -o "$out/pingpong_c" bench/pingpong_c.c
rounds=${BENCH_ROUNDS:-5}
: > "$out/profile_overhead.txt"
for r in $(seq "$rounds"); do
  # Alternate which goes first, so neither always meets the machine's
  # slow or fast phase.
  order="off on"; [ $((r % 2)) = 0 ] && order="on off"
  for mode in $order; do
    flag=(); [ "$mode" = on ] && flag=(--profile)
    build/bin/gompirun -n 2 --bind-to core "${flag[@]}" "$out/pingpong_c" 2>"$out/profile_$mode.stderr" |
      sed "s/^c /$mode /" | tee -a "$out/profile_overhead.txt"
    if [ "$mode" = on ] && ! grep -q "gompi profile:" "$out/profile_on.stderr"; then
      echo "bench_profile: --profile printed no table (see $out/profile_on.stderr)" >&2
      exit 1
    fi
  done
done
median() { grep "^$1 $2" "$out/profile_overhead.txt" | awk '{print $NF}' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
: > "$out/profile_overhead.md"
for what in one-way procnull; do
  off=$(median off "$what"); on=$(median on "$what")
  printf -- '--profile overhead, 1-byte %s (median of %s runs): off %s ns, on %s ns, ratio %s\n' "$what" \
    "$rounds" "$off" "$on" "$(awk -v a="$on" -v b="$off" 'BEGIN {printf "%.3f", a / b}')" | tee -a "$out/profile_overhead.md"
done

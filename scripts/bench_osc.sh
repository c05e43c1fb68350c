#!/usr/bin/env bash
# One-sided benchmark: OSU 7.4's one-sided programs built once per library
# (gompi, Debian's Open MPI, Debian's MPICH; tests/osu's cached builds under
# build/osu/<lib>/osu), run with 2 ranks bound to the two cores for window
# flavours allocate and create with flush and lock synchronisation (put/get
# latency also fence and pscw; osu_put_bibw only has fence and pscw),
# BENCH_ROUNDS rounds (3) alternating the libraries, each row's median
# (scripts/median_rows.awk says why), printed as one markdown table of the
# key sizes (8 B, 4 KiB, 64 KiB, 1 MiB; fop/cas: one MPI_INT) with
# gompi/best-peer ratios.
# A library whose OSU build lacks the one-sided programs is left out with a
# line saying so (gompi before it has windows).
# BENCH_MODE=quick: fewer iterations and one round. OSC_BENCH_LIBS: the
# libraries (default "gompi openmpi mpich"). OSC_BENCH_ONLY: an extended
# regexp on "program/window/sync" (e.g. '^(put|get)_latency/allocate/')
# keeping only the runs it matches. Output: build/bench/osc/osc.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/build/bench/osc
mkdir -p "$out"
mode=${BENCH_MODE:-full}
read -r -a libs <<< "${OSC_BENCH_LIBS:-gompi openmpi mpich}"
rounds=${BENCH_ROUNDS:-3}
[ "$mode" = quick ] && rounds=${BENCH_ROUNDS:-1}
# bench_run.sh waits up to this long before each run for the machine's fast
# phase; with ~100 runs per round 20 s each would dominate.
export BENCH_PHASE_WAIT=${BENCH_PHASE_WAIT:-5}

onesided() { echo "$root/build/osu/$1/osu/c/mpi/one-sided"; }

# Build with the recipe and cache tests/osu uses (cmd/suitebuild).
avail=()
for lib in "${libs[@]}"; do
  echo "== OSU 7.4 against $lib (cached build; log in $out/build_$lib.log)" >&2
  go run ./cmd/suitebuild -lib "$lib" osu > "$out/build_$lib.log" 2>&1 || true
  missing=""
  for p in put_latency get_latency put_bw get_bw put_bibw acc_latency get_acc_latency fop_latency cas_latency; do
    [ -x "$(onesided "$lib")/osu_$p" ] || missing+=" osu_$p"
  done
  if [ -z "$missing" ]; then
    avail+=("$lib")
  elif [ "$lib" = gompi ]; then
    echo "gompi: OSU's one-sided programs do not build against libgompi (no one-sided calls in it yet?):$missing;" \
      "see build/osu/gompi/osu/build.log. Going on with the other libraries."
  else
    echo "$lib: OSU's one-sided programs missing:$missing (see $out/build_$lib.log); left out."
  fi
done
[ ${#avail[@]} -gt 0 ] || { echo "no library to benchmark"; exit 1; }

# The runs: program window sync.
configs=()
for w in allocate create; do
  for p in put_latency get_latency put_bw get_bw acc_latency get_acc_latency fop_latency cas_latency; do
    for s in flush lock; do configs+=("$p $w $s"); done
  done
  for p in put_latency get_latency; do
    for s in fence pscw; do configs+=("$p $w $s"); done
  done
  for s in fence pscw; do configs+=("put_bibw $w $s"); done
done
if [ -n "${OSC_BENCH_ONLY:-}" ]; then
  kept=()
  for c in "${configs[@]}"; do
    read -r p w s <<< "$c"
    [[ $p/$w/$s =~ $OSC_BENCH_ONLY ]] && kept+=("$c")
  done
  configs=("${kept[@]}")
  [ ${#configs[@]} -gt 0 ] || { echo "OSC_BENCH_ONLY=$OSC_BENCH_ONLY matches no run"; exit 1; }
fi

# args PROGRAM: sizes and iterations (bandwidth runs move a window of 64
# messages per iteration: fewer iterations).
args() {
  local a=()
  case $1 in
  fop_latency | cas_latency) a+=(-T mpi_int) ;; # one 4-byte element
  *) a+=(-m 8:1048576) ;;
  esac
  case $1 in
  *bw) [ "$mode" = quick ] && a+=(-i 20 -x 2) || a+=(-i 100 -x 10) ;;
  *) [ "$mode" = quick ] && a+=(-i 200 -x 20) || a+=(-i 2000 -x 200) ;;
  esac
  echo "${a[@]}"
}

launch() {
  case $1 in
  gompi) echo build/bin/gompirun -n 2 --bind-to core ;;
  openmpi) echo mpirun.openmpi --allow-run-as-root --bind-to core -n 2 ;;
  mpich) echo mpiexec.mpich -n 2 -bind-to core ;;
  esac
}

. scripts/bench_run.sh
rm -f "$out"/*_r*.{txt,phase,err,rows}
for r in $(seq "$rounds"); do
  for lib in $(rotated "$r" "${avail[@]}"); do
    i=0
    for c in "${configs[@]}"; do
      read -r p w s <<< "$c"
      i=$((i + 1))
      f="$out/${lib}_r${r}_$i.txt"
      # shellcheck disable=SC2046
      run "$f" $(launch "$lib") "$(onesided "$lib")/osu_$p" -w "$w" -s "$s" $(args "$p")
      awk -v m="$p/$w/$s" '/^[0-9]+[ \t]+[0-9.]+/ { print m, $1, $2 }' "$f" >> "$out/${lib}_r$r.rows"
    done
  done
done
for lib in "${avail[@]}"; do
  cat "$out/${lib}"_r*.rows | awk -f scripts/median_rows.awk > "$out/$lib.txt"
  rm -f "$out/${lib}"_r*.rows
done

# The table: one row per run and key size; gompi/best peer (lower is better
# for latency, higher for bandwidth).
{
  echo "### One-sided (OSU 7.4, 2 ranks bound; latency us, bandwidth MB/s; median of $rounds round(s))"
  echo
  files=()
  for lib in gompi openmpi mpich; do
    if [[ " ${avail[*]} " == *" $lib "* ]]; then files+=("$lib=$out/$lib.txt"); else files+=("$lib=/dev/null"); fi
  done
  awk -v spec="${files[*]}" '
    BEGIN {
      n = split(spec, s, " ")
      for (i = 1; i <= n; i++) { split(s[i], kv, "="); name[i] = kv[1]; file[i] = kv[2] }
      for (i = 1; i <= n; i++) {
        while ((getline line < file[i]) > 0) {
          split(line, f, " ")
          if (f[2] != 8 && f[2] != 4096 && f[2] != 65536 && f[2] != 1048576 && f[1] !~ /^(fop|cas)_/) continue
          k = f[1] " " f[2]
          if (!(k in seen)) { seen[k] = 1; order[rows++] = k }
          v[i, k] = f[3]
        }
        close(file[i])
      }
      printf "| %-34s | %7s |", "benchmark/window/sync", "bytes"
      for (i = 1; i <= n; i++) printf " %9s |", name[i]
      printf " gompi/best |\n|------------------------------------|---------|"
      for (i = 1; i <= n; i++) printf "-----------|"
      printf "------------|\n"
      for (r = 0; r < rows; r++) {
        k = order[r]; split(k, kk, " ")
        bw = kk[1] ~ /_bw|_bibw/
        sz = kk[2] >= 1048576 ? kk[2] / 1048576 "M" : kk[2] >= 1024 ? kk[2] / 1024 "K" : kk[2]
        printf "| %-34s | %7s |", kk[1] (bw ? " MB/s" : " us"), sz
        best = ""
        for (i = 1; i <= n; i++) {
          if ((i, k) in v) printf " %9.2f |", v[i, k]; else printf " %9s |", "-"
          if (i > 1 && (i, k) in v && v[i, k] > 0 && (best == "" || (bw ? v[i, k] > best : v[i, k] < best))) best = v[i, k]
        }
        if ((1, k) in v && best != "") printf " %10.2f |\n", v[1, k] / best; else printf " %10s |\n", "-"
      }
    }'
  echo
  echo "gompi/best: latency at most 0.5 and bandwidth at least 1.0 are the targets (issue 21)."
  [[ " ${avail[*]} " == *" gompi "* ]] || echo "gompi: not measured (its OSU one-sided programs did not build)."
  echo
  echo "Cache-line round trip between the two cores before/after each run, ns (bench/floor/core_rtt.c):"
  echo
  phases "$out" "%s" "${avail[@]}" | sed 's/^/    /'
} | tee "$out/osc.md"

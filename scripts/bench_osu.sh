#!/usr/bin/env bash
# make bench on the yardsticks: OSU micro-benchmarks 7.4 and IMB-MPI1, built
# once against gompi, Debian's Open MPI and Debian's MPICH (cmd/suitebuild:
# the recipe and cache tests/osu uses, under build/osu/<lib>/), run side by
# side: point-to-point and one-sided with 2 ranks bound to the two cores,
# collectives with 2 ranks bound and 4 oversubscribed; and the MPICH-built
# OSU binaries on gompi through gompirun --mpich-binary (the same binary on
# two libraries). BENCH_ROUNDS rounds (3; quick: 1), the libraries' order
# rotated per run, each size's median (cmd/gompiplot), the machine's phase
# measured around each run (scripts/bench_run.sh).
#
# Output: raw outputs in build/bench/osu/<lib>/, pictures (build/bin/gompiplot)
# in docs/img/, tables and pictures' links between the markers of
# docs/performance.md (a rerun replaces that section). BENCH_DOCS=0 keeps
# docs/ as it is (pictures and tables in build/bench/osu/ only).
#
# BENCH_QUICK=1 (or BENCH_MODE=quick): fewer sizes and iterations, one
# round: a smoke test of a few minutes. BENCH_OSU_ONLY: an extended regexp
# on "program/npN" (or "IMB-MPI1/npN") keeping only the runs it matches.
# BENCH_LIBS: the libraries (default "gompi openmpi mpich mpich-binary").
# BENCH_PLOT_ONLY=1: no run, the last run's outputs drawn and written again.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/build/bench/osu
mode=${BENCH_MODE:-full}
[ "${BENCH_QUICK:-0}" = 1 ] && mode=quick
rounds=${BENCH_ROUNDS:-3}
[ "$mode" = quick ] && rounds=${BENCH_ROUNDS:-1}
# bench_run.sh waits up to this long before each run for the fast phase;
# with ~100 runs a round, 20 s each would dominate.
export BENCH_PHASE_WAIT=${BENCH_PHASE_WAIT:-5}
read -r -a libs <<< "${BENCH_LIBS:-gompi openmpi mpich mpich-binary}"
docs=${BENCH_DOCS:-1}
mkdir -p "$out"

[ -x build/bin/gompiplot ] || go build -o build/bin/gompiplot ./cmd/gompiplot
go build -o "$out/suitebuild" ./cmd/suitebuild

# The builds (cached). declare -A: library -> tree.
declare -A osu imb
avail=()
for lib in "${libs[@]}"; do
  b=$lib
  [ "$lib" = mpich-binary ] && b=mpich
  if [ -z "${osu[$b]:-}" ]; then
    echo "== OSU 7.4 and IMB-MPI1 against $b (cached build)" >&2
    rc=0
    osu[$b]=$("$out/suitebuild" -lib "$b" osu) || rc=$?
    [ "$rc" = 0 ] && { imb[$b]=$("$out/suitebuild" -lib "$b" imb IMB-MPI1) || rc=$?; }
    if [ "$rc" = 2 ]; then
      echo "The OSU/IMB sources or $b's compiler are absent (above): no yardstick run;" \
        "make bench's own programs (scripts/bench.sh, bench_coll.sh) still compare the libraries."
      exit 0
    fi
    [ "$rc" = 0 ] || { echo "$b: the build failed (above); left out"; osu[$b]=""; continue; }
  fi
  [ -n "${osu[$b]}" ] && avail+=("$lib")
done
[ ${#avail[@]} -gt 0 ] || { echo "no library to benchmark"; exit 1; }

# prog LIB NAME: the OSU program's path in LIB's tree ("" when it was not built).
prog() {
  local b=$1
  [ "$b" = mpich-binary ] && b=mpich
  find "${osu[$b]}/c/mpi" -name "$2" -type f -perm -u+x 2>/dev/null | head -1
}

# The runs: "program np". Point-to-point and one-sided on 2 ranks, the
# collectives and IMB's collective-like ones on 2 and 4.
pt2pt=(osu_latency osu_bw osu_bibw osu_mbw_mr)
coll=(osu_barrier osu_bcast osu_reduce osu_allreduce osu_allgather osu_alltoall osu_reduce_scatter)
onesided=(osu_put_latency osu_get_latency osu_put_bw osu_get_bw osu_acc_latency osu_fop_latency osu_cas_latency)
configs=()
for p in "${pt2pt[@]}" "${onesided[@]}"; do configs+=("$p 2"); done
for np in 2 4; do
  for p in "${coll[@]}"; do configs+=("$p $np"); done
  configs+=("IMB-MPI1 $np")
done
if [ -n "${BENCH_OSU_ONLY:-}" ]; then
  kept=()
  for c in "${configs[@]}"; do
    read -r p np <<< "$c"
    [[ $p/np$np =~ $BENCH_OSU_ONLY ]] && kept+=("$c")
  done
  configs=("${kept[@]}")
  [ ${#configs[@]} -gt 0 ] || { echo "BENCH_OSU_ONLY=$BENCH_OSU_ONLY matches no run"; exit 1; }
fi

# args PROGRAM NP: sizes and iterations. Quick: small sizes, few
# iterations. Full: OSU's defaults on 2 ranks; on 4 oversubscribed ranks
# fewer iterations (MPICH spins for its time slice in every wait, ~10 ms).
args() {
  local p=$1 np=$2
  if [ "$p" = IMB-MPI1 ]; then
    local a=(-npmin "$np" -time 10)
    if [ "$mode" = quick ]; then a+=(-msglog 0:16 -iter 50); elif [ "$np" -gt 2 ]; then a+=(-msglog 0:20 -iter 100); else a+=(-msglog 0:22); fi
    if [ "$np" = 2 ]; then a+=(PingPong); fi
    echo "${a[@]}" Sendrecv Exchange Allreduce Bcast Alltoall
    return
  fi
  local a=()
  case $p in
  osu_put_* | osu_get_* | osu_acc_*) a+=(-w allocate -s flush) ;;
  osu_fop_* | osu_cas_*) a+=(-w allocate -s flush -T mpi_int) ;;
  esac
  case $p in
  osu_barrier | osu_fop_* | osu_cas_*) ;; # no sizes
  *) [ "$mode" = quick ] && a+=(-m 1:65536) ;;
  esac
  case $mode/$p in
  quick/*bw | quick/osu_mbw_mr) a+=(-i 10 -x 2) ;;
  quick/*) [ "$np" -gt 2 ] && a+=(-i 20 -x 2) || a+=(-i 200 -x 20) ;;
  full/*) [ "$np" -gt 2 ] && a+=(-i 100 -x 10) ;;
  esac
  echo "${a[@]}"
}

# launch LIB NP: the launcher's argv prefix, bound to cores on 2 ranks.
launch() {
  local bound=1
  [ "$2" -le "$(nproc)" ] || bound=0
  case $1 in
  gompi) echo build/bin/gompirun -n "$2" --timeout 1100 $([ $bound = 1 ] && echo --bind-to core) ;;
  mpich-binary) echo build/bin/gompirun -n "$2" --timeout 1100 $([ $bound = 1 ] && echo --bind-to core) --mpich-binary ;;
  openmpi) echo mpirun.openmpi --allow-run-as-root -n "$2" $([ $bound = 1 ] && echo --bind-to core || echo --bind-to none --oversubscribe) ;;
  mpich) echo mpiexec.mpich -n "$2" $([ $bound = 1 ] && echo -bind-to core) ;;
  esac
}

. scripts/bench_run.sh
missing=()
if [ "${BENCH_PLOT_ONLY:-0}" = 1 ]; then
  rounds=$(ls "$out"/gompi/*_r*.txt 2>/dev/null | sed -E 's/.*_r([0-9]+)\.txt/\1/' | sort -n | tail -1)
  rounds=${rounds:-0}
  echo "BENCH_PLOT_ONLY=1: drawing the outputs of the last run in $out" >&2
else
  for lib in "${avail[@]}"; do rm -rf "${out:?}/$lib"; mkdir -p "$out/$lib"; done
  uptime > "$out/load"
  git rev-parse --short HEAD > "$out/commit" 2>/dev/null || true
fi
[ "${BENCH_PLOT_ONLY:-0}" = 1 ] || for r in $(seq "$rounds"); do
  for c in "${configs[@]}"; do
    read -r p np <<< "$c"
    for lib in $(rotated "$r" "${avail[@]}"); do
      b=$lib
      [ "$lib" = mpich-binary ] && b=mpich
      if [ "$p" = IMB-MPI1 ]; then
        [ "$lib" = mpich-binary ] && continue # one binary on two libraries: OSU's suffice
        exe=${imb[$b]}/IMB-MPI1
      else
        exe=$(prog "$lib" "$p")
      fi
      if [ ! -x "$exe" ]; then
        [ "$r" = 1 ] && missing+=("$lib: $p not built")
        continue
      fi
      # shellcheck disable=SC2046
      run "$out/$lib/${p}_np${np}_r$r.txt" $(launch "$lib" "$np") "$exe" $(args "$p" "$np")
    done
  done
done

# The pictures and tables: every run's output, labelled library@ranks
# (IMB's output says its rank count itself), in the runs' order, the
# libraries in a fixed one (gompiplot's columns and legends follow it).
plotargs=()
for c in "${configs[@]}"; do
  read -r p np <<< "$c"
  for lib in gompi openmpi mpich mpich-binary; do
    [[ " ${avail[*]} " == *" $lib "* ]] || continue
    label=$lib
    [ "$lib" = mpich-binary ] && label="gompi(mpich-binary)"
    for f in "$out/$lib/${p}_np${np}"_r*.txt; do
      [ -e "$f" ] && plotargs+=("$label@$np=$f")
    done
  done
done
peers=()
for lib in openmpi mpich; do [[ " ${avail[*]} " == *" $lib "* ]] && peers+=("$lib"); done
img=$out/img
[ "$docs" = 1 ] && img=$root/docs/img
mkdir -p "$img"
rm -f "$img"/osu_*.png "$img"/imb_*.png "$img"/bench_summary.png
peerflag=()
[ ${#peers[@]} -gt 0 ] && peerflag=(-peers "$(IFS=,; echo "${peers[*]}")")
build/bin/gompiplot -skip-bad -o "$img" -img img -summary bench_summary -md "$out/tables.md" \
  -subject gompi "${peerflag[@]}" "${plotargs[@]}" 2> "$out/gompiplot.log" || { cat "$out/gompiplot.log"; exit 1; }
grep 'left out' "$out/gompiplot.log" || true

# The section: how it was made, the phases, what failed, the tables.
fast=()
for lib in "${avail[@]}"; do
  n=0 k=0
  for ph in "$out/$lib"/*.phase; do
    [ -e "$ph" ] || continue
    IFS=/ read -r a z < "$ph"
    k=$((k + 1))
    [[ $a =~ ^[0-9]+$ && ${z:-} =~ ^[0-9]+$ ]] && [ "$a" -lt "${PHASE_NS:-150}" ] && [ "$z" -lt "${PHASE_NS:-150}" ] && n=$((n + 1))
  done
  fast+=("$lib $n of $k")
done
failed=()
for e in "$out"/*/*.err; do
  [ -s "$e" ] || continue
  grep -qiE 'abort|error|fail|killed|timeout|time-out' "$e" && failed+=("$(basename "$(dirname "$e")")/$(basename "$e" .err): $(grep -iE -m1 'abort|error|fail|killed|timeout|time-out' "$e" | cut -c1-160)")
done
section=$out/section.md
{
  echo "<!-- BEGIN make bench: OSU and IMB (written by scripts/bench_osu.sh; a rerun replaces this section) -->"
  echo "## OSU 7.4 and IMB-MPI1 against Open MPI and MPICH"
  echo
  echo "Written by \`$([ "$mode" = quick ] && echo 'BENCH_QUICK=1 ')scripts/bench_osu.sh\` (part of \`make bench\`; run started $(stat -c %y "$out/load" 2>/dev/null | cut -c1-16) UTC)," \
    "commit $(cat "$out/commit" 2>/dev/null || echo '?'), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end of the drawing," \
    "mode $mode ($([ "$mode" = quick ] && echo 'sizes up to 64 KiB, few iterations: a smoke test, noisy' || echo "OSU's default sizes and iterations on 2 ranks")), $rounds round(s), each size's median."
  echo "The same OSU 7.4 and IMB sources are built once per library (\`cmd/suitebuild\`, cached in \`build/osu/<lib>/\`)" \
    "and run with 2 ranks bound to the two cores (point-to-point, one-sided \`-w allocate -s flush\`, collectives)" \
    "and 4 ranks oversubscribed (collectives, IMB). \`gompi(mpich-binary)\` is the MPICH-built OSU binary run on gompi" \
    "(\`gompirun --mpich-binary\`). Pictures: \`gompiplot\` (\`cmd/gompiplot\`), which draws any OSU or IMB output" \
    "(\`build/bin/gompiplot osu_latency.txt\`). Ratios are gompi over the better of Open MPI and MPICH."
  echo
  load=$(awk '{print $(NF-2)}' "$out/load" 2>/dev/null | tr -d ,)
  if [ -n "$load" ] && awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > n) }'; then
    echo "**The machine was busy when this run started (load average $load on $(nproc) cores): the figures measure that load as much as the libraries.**"
    echo
  fi
  echo "Runs that started and ended in the machine's fast phase (cache-line round trip under ${PHASE_NS:-150} ns; see above): $(IFS=';'; echo "${fast[*]}" | sed 's/;/; /g')."
  if [ ${#missing[@]} -gt 0 ] || [ ${#failed[@]} -gt 0 ]; then
    echo
    echo "Not measured or failed:"
    echo
    for m in "${missing[@]}" "${failed[@]}"; do echo "- $m"; done
  fi
  echo
  sed 's/^#### /### /' "$out/tables.md"
  echo "<!-- END make bench: OSU and IMB -->"
} > "$section"
echo "tables: $section; pictures: $img"
if [ "$docs" = 1 ]; then
  doc=docs/performance.md
  if grep -q '^<!-- BEGIN make bench: OSU and IMB' "$doc"; then
    awk -v f="$section" '/^<!-- BEGIN make bench: OSU and IMB/ { while ((getline l < f) > 0) print l; skip = 1; next }
      /^<!-- END make bench: OSU and IMB -->/ { skip = 0; next } !skip' "$doc" > "$doc.new"
  else
    # First time: after the introduction, before the first section.
    awk -v f="$section" '/^## / && !done { while ((getline l < f) > 0) print l; print ""; done = 1 } { print }' "$doc" > "$doc.new"
  fi
  mv "$doc.new" "$doc"
  echo "docs/performance.md: section replaced; pictures in docs/img/"
fi

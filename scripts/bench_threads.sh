#!/usr/bin/env bash
# MPI_THREAD_MULTIPLE benchmark (issue 24), 2 ranks:
#  - 1-byte latency of one thread (bench/threads.c lat): gompi at SERIALIZED
#    (C fast path on), at SERIALIZED with GOMPI_FASTPATH=0 (the path MULTIPLE
#    takes: every call crosses into Go), at MULTIPLE; Open MPI and MPICH at
#    MULTIPLE;
#  - aggregate message rate with 1, 2, 4 threads per rank, each on its own
#    communicator (bench/threads.c rate T: windows of 64 8-byte messages);
#  - osu_latency_mt (1 sender, 2 receiver threads), from build/osu/<lib>/
#    when tests/osu built it there (OSU_TEST_FILTER=osu_latency_mt go test
#    ./tests/osu builds it for every library it finds).
# Each figure is the best of 5 timed runs inside one job; BENCH_ROUNDS (1)
# repeats every job and keeps the best. On 2 cores, 2 threads per rank is
# oversubscribed: judge per core, and note the machine's load (printed).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/build/bench
mkdir -p "$out"
rounds=${BENCH_ROUNDS:-1}

build/bin/gompicc -O2 -o "$out/threads_gompi" bench/threads.c
have_ompi=0 have_mpich=0
mpicc.openmpi -O2 -o "$out/threads_ompi" bench/threads.c 2>/dev/null && have_ompi=1
mpicc.mpich -O2 -o "$out/threads_mpich" bench/threads.c 2>/dev/null && have_mpich=1

# job IMPL ENV... -- ARGS: the figure printed by rank 0 (best over rounds;
# for "lat" lower is better, for "rate" higher).
job() {
  local impl=$1; shift
  local envs=() xs=()
  while [ "$1" != -- ]; do envs+=("$1"); xs+=(-x "$1"); shift; done
  shift
  local best="" v
  for _ in $(seq "$rounds"); do
    case $impl in
    gompi) v=$(timeout 300 build/bin/gompirun -n 2 "${xs[@]}" "$out/threads_gompi" "$@" | awk '{print $2}') ;;
    openmpi) v=$(timeout 300 mpirun.openmpi --allow-run-as-root --oversubscribe -n 2 "${xs[@]}" "$out/threads_ompi" "$@" | awk '{print $2}') ;;
    mpich) v=$(timeout 300 env "${envs[@]}" mpiexec.mpich -n 2 "$out/threads_mpich" "$@" | awk '{print $2}') ;;
    esac
    [ -z "$v" ] && v=nan
    if [ -z "$best" ] || [ "$best" = nan ]; then best=$v
    elif [ "$1" = lat ]; then best=$(awk -v a="$best" -v b="$v" 'BEGIN{print (b<a)?b:a}')
    else best=$(awk -v a="$best" -v b="$v" 'BEGIN{print (b>a)?b:a}'); fi
  done
  echo "$best"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a+0>0 && b+0>0) printf "%.2f", a/b; else print "-" }'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo
echo "### 1-byte latency, one thread (us)"
echo
ser=$(job gompi -- serialized lat)
ser0=$(job gompi GOMPI_FASTPATH=0 -- serialized lat)
mul=$(job gompi -- multiple lat)
om=-; mm=-
[ $have_ompi = 1 ] && om=$(job openmpi -- multiple lat)
[ $have_mpich = 1 ] && mm=$(job mpich -- multiple lat)
echo "| gompi SERIALIZED | gompi SERIALIZED, no C fast path | gompi MULTIPLE | Open MPI MULTIPLE | MPICH MULTIPLE | MULTIPLE - SERIALIZED (ns) | MULTIPLE - no-fast-path SERIALIZED (ns) |"
echo "|---|---|---|---|---|---|---|"
echo "| $ser | $ser0 | $mul | $om | $mm | $(awk -v a="$mul" -v b="$ser" 'BEGIN{printf "%.0f", (a-b)*1000}') | $(awk -v a="$mul" -v b="$ser0" 'BEGIN{printf "%.0f", (a-b)*1000}') |"
echo
echo "### Message rate, threads per rank each on its own communicator (million messages/s)"
echo
echo "| threads | gompi MULTIPLE | Open MPI | MPICH | gompi/best peer |"
echo "|---|---|---|---|---|"
for t in 1 2 4; do
  g=$(job gompi -- multiple rate $t)
  o=-; m=-
  [ $have_ompi = 1 ] && o=$(job openmpi -- multiple rate $t)
  [ $have_mpich = 1 ] && m=$(job mpich -- multiple rate $t)
  best=$(awk -v a="$o" -v b="$m" 'BEGIN{a+=0; b+=0; print (a>b)?a:b}')
  echo "| $t | $(awk -v v="$g" 'BEGIN{printf "%.2f", v/1e6}') | $(awk -v v="$o" 'BEGIN{printf "%.2f", v/1e6}') | $(awk -v v="$m" 'BEGIN{printf "%.2f", v/1e6}') | $(ratio "$g" "$best") |"
done
echo
echo "### osu_latency_mt, 1 sender and 2 receiver threads (us, 1 B / 1 KiB / 4 KiB)"
echo
rel=osu/c/mpi/pt2pt/standard/osu_latency_mt
for impl in gompi openmpi mpich; do
  b=build/osu/$impl/$rel
  if [ ! -x "$b" ]; then echo "- $impl: $b not built"; continue; fi
  case $impl in
  gompi) o=$(timeout 300 build/bin/gompirun -n 2 "$b" -m 1:4096 2>&1 || true) ;;
  openmpi) o=$(timeout 300 mpirun.openmpi --allow-run-as-root --oversubscribe -n 2 "$b" -m 1:4096 2>&1 || true) ;;
  mpich) o=$(timeout 300 mpiexec.mpich -n 2 "$b" -m 1:4096 2>&1 || true) ;;
  esac
  echo "- $impl: $(echo "$o" | awk '$1==1||$1==1024||$1==4096{printf "%s ", $2}')"
done

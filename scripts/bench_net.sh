#!/usr/bin/env bash
# Network benchmarks across "nodes" of one machine, gompi against Open MPI
# and MPICH in one run: OSU 7.4's osu_latency, osu_bw and osu_bibw with 2
# ranks that share no memory, and (on the rig) osu_allreduce and osu_bcast
# with 3 nodes x 2 ranks. OSU builds: tests/osu's cache under
# build/osu/<lib>/osu (built here when missing).
#
# BENCH_NET_RIG=1 (make bench): the ranks run on network namespaces of the
# rig (scripts/netns-rig.sh, root needed; the rig lock is taken so no test
# rig runs at the same time):
#   gompi   gompirun --host with the rig's launch agent (btl/ofi: libfabric)
#   openmpi mpirun --host, the agent as rsh agent, --mca btl tcp,self,vader,
#           --bind-to none (each host's daemon would bind its first rank to
#           core 0: every node's on one core of this shared kernel)
#   mpich   Hydra (-launcher-exec the agent), UCX tcp on eth0 (Debian's
#           MPICH is ch4:ucx; not UCX's sm: it takes namespaces of one
#           kernel for one node, 0.15 us across them; MPICH's own shared
#           memory serves ranks of one node)
# Without it, point-to-point only, 2 ranks on this machine made separate
# nodes (gompi GOMPI_NODE_SPLIT=rank over lo; Open MPI btl tcp,self;
# MPICH MPIR_CVAR_NOLOCAL=1 UCX tcp on lo).
#
# BENCH_ROUNDS rounds (3; BENCH_MODE=quick 1), the libraries alternating; each row's median
# (scripts/median_rows.awk). BENCH_NICE=-20 runs every job at that nice
# value: other work on the machine then barely delays the ranks (the same
# for all three libraries; spin-polling peers suffer most from load).
# Output in build/bench/net (build/bench/net-rig on the rig): net.md, a
# markdown table per benchmark with gompi/best-peer ratios (latency:
# below 1 is better; bandwidth: above 1 is better) and the load average
# before and after. BENCH_LIBS (default "gompi openmpi mpich") runs a
# subset; the table takes the others' figures from their last run.
# BENCH_TIMEOUT: seconds one benchmark may run (900; what a killed run
# printed still counts).
set -euo pipefail
if [ "${BENCH_NET_RIG:-}" = 1 ] && [ -z "${GOMPI_RIG_PREFIX:-}" ]; then
  cd "$(dirname "$0")/.."
  exec flock "${TMPDIR:-/tmp}/gompi-netns-rig.lock" scripts/netns-rig.sh run "$0" "$@"
fi
cd "$(dirname "$0")/.."
root=$PWD
rig=${GOMPI_RIG_PREFIX:-}
out=$root/build/bench/net
[ -n "$rig" ] && out=$root/build/bench/net-rig
mkdir -p "$out"
rounds=${BENCH_ROUNDS:-3}
[ "${BENCH_MODE:-}" = quick ] && rounds=${BENCH_ROUNDS:-1}
read -r -a libs <<< "${BENCH_LIBS:-gompi openmpi mpich}"
nice=()
[ -n "${BENCH_NICE:-}" ] && nice=(nice -n "$BENCH_NICE")
# BENCH_OSU_ROOT: OSU builds elsewhere (e.g. another checkout's build/osu);
# gompi's then run on this checkout's library (LD_LIBRARY_PATH wins over
# their RUNPATH).
osu=${BENCH_OSU_ROOT:-$root/build/osu}
p2p() { echo "$osu/$1/osu/c/mpi/pt2pt/standard"; }
coll() { echo "$osu/$1/osu/c/mpi/collective/blocking"; }
for lib in "${libs[@]}"; do
  if [ ! -x "$(p2p "$lib")/osu_latency" ]; then
    echo "== building OSU 7.4 against $lib (log $out/build_$lib.log)" >&2
    OSU_TEST_LIB=$lib go test ./tests/osu -run 'TestOSU/programs$' -count=1 -timeout 60m \
      > "$out/build_$lib.log" 2>&1 || true
  fi
  [ -x "$(p2p "$lib")/osu_latency" ] || { echo "no OSU build for $lib: see $out/build_$lib.log" >&2; exit 1; }
done

agent=$root/scripts/netns-agent.sh
# launch LIB NP: the command line starting NP ranks (2: one per node; 6:
# two on each of three nodes).
launch() {
  if [ -n "$rig" ]; then
    local gh="n1:1,n2:1" oh="n1:1,n2:1" mh="-ppn 1 -hosts n1,n2"
    [ "$2" = 6 ] && gh="n1:2,n2:2,n3:2" oh="n1:2,n2:2,n3:2" mh="-ppn 2 -hosts n1,n2,n3"
    case $1 in
    gompi) echo "build/bin/gompirun -n $2 --host $gh --launch-agent $agent -x LD_LIBRARY_PATH=$root/build/lib" ;;
    openmpi) echo "mpirun.openmpi --allow-run-as-root -n $2 --host $oh --bind-to none --mca plm_rsh_agent $agent --mca pml ob1 --mca btl tcp,self,vader --mca btl_tcp_if_include eth0 --mca oob_tcp_if_include ${rig}br,eth0" ;;
    mpich) echo "mpiexec.mpich -n $2 $mh -iface ${rig}br -launcher ssh -launcher-exec $agent -genv UCX_TLS tcp -genv UCX_NET_DEVICES eth0" ;;
    esac
    return
  fi
  case $1 in
  gompi) echo "build/bin/gompirun -n 2 -x GOMPI_NODE_SPLIT=rank -x LD_LIBRARY_PATH=$root/build/lib" ;;
  openmpi) echo "mpirun.openmpi --allow-run-as-root -n 2 --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo" ;;
  mpich) echo "env MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp UCX_NET_DEVICES=lo mpiexec.mpich -n 2" ;;
  esac
}

# bench NAME DIRFN NP ARGS: one benchmark on every library for this round.
bench() {
  local b=$1 dir=$2 np=$3 args=$4
  for lib in "${libs[@]}"; do
    # shellcheck disable=SC2046,SC2086
    timeout "${BENCH_TIMEOUT:-900}" "${nice[@]}" $(launch "$lib" "$np") "$($dir "$lib")/osu_$b" $args > "$out/${lib}_${b}_r$r.txt" 2>&1 \
      || echo "$lib osu_$b round $r failed: $(tail -2 "$out/${lib}_${b}_r$r.txt")" >&2
  done
}

p2pb=(latency bw bibw)
collb=()
[ -n "$rig" ] && collb=(allreduce bcast)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for lib in "${libs[@]}"; do rm -f "$out/${lib}"_*_r*.txt; done
for r in $(seq "$rounds"); do
  for b in "${p2pb[@]}"; do bench "$b" p2p 2 "-m 1:4194304"; done
  for b in "${collb[@]}"; do bench "$b" coll 6 "-m 4:1048576"; done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
for lib in "${libs[@]}"; do
  for b in "${p2pb[@]}" "${collb[@]}"; do
    cat "$out"/${lib}_${b}_r*.txt | awk '/^[0-9]+[[:space:]]/ { print "'$b'", $1, $2 }' | awk -f scripts/median_rows.awk > "$out/${lib}_$b.txt"
  done
done

val() { [ -f "$out/$1_$2.txt" ] && awk -v s="$3" '$2 == s { print $3 }' "$out/$1_$2.txt"; true; }
# table B UNIT BETTER SIZES...: one row per size, gompi / the better peer.
table() {
  local b=$1 unit=$2 better=$3
  shift 3
  echo
  echo "osu_$b ($unit; ratio gompi/best peer, $better is better)"
  echo
  echo "| size | gompi | Open MPI | MPICH | ratio |"
  echo "|---:|---:|---:|---:|---:|"
  for s in "$@"; do
    local g o m
    g=$(val gompi "$b" "$s") o=$(val openmpi "$b" "$s") m=$(val mpich "$b" "$s")
    local ratio
    ratio=$(awk -v g="$g" -v o="$o" -v m="$m" -v lower="$([ "$better" = lower ] && echo 1 || echo 0)" 'BEGIN {
      best = ""
      if (o != "") best = o
      if (m != "" && (best == "" || (lower ? m + 0 < best + 0 : m + 0 > best + 0))) best = m
      if (g == "" || best == "" || best + 0 == 0) { print "-"; exit }
      printf "%.2f", g / best }')
    echo "| $s | ${g:--} | ${o:--} | ${m:--} | $ratio |"
  done
}
{
  where="2 processes on one machine made separate nodes (over lo)"
  [ -n "$rig" ] && where="network namespaces of one machine (veth + bridge): point-to-point 2 nodes x 1 rank, collectives 3 nodes x 2 ranks"
  echo "Across $where; median of $rounds rounds; load average before $load0, after $load1${BENCH_NICE:+; jobs at nice $BENCH_NICE}."
  sizes="1 8 1024 8192 16384 65536 131072 262144 1048576 4194304"
  # shellcheck disable=SC2086
  table latency us lower $sizes
  # shellcheck disable=SC2086
  table bw MB/s higher $sizes
  # shellcheck disable=SC2086
  table bibw MB/s higher $sizes
  for b in "${collb[@]}"; do
    table "$b" us lower 4 64 1024 8192 65536 1048576
  done
} | tee "$out/net.md"

#!/usr/bin/env bash
# Network point-to-point across "nodes" of one machine: OSU 7.4's osu_latency
# and osu_bw (tests/osu's cached builds under build/osu/<lib>/osu) with 2
# ranks that do not share memory:
#   gompi   GOMPI_NODE_SPLIT=rank: btl/ofi over libfabric tcp;ofi_rxm (lo)
#   openmpi --mca pml ob1 --mca btl tcp,self (TCP over lo)
#   mpich   MPIR_CVAR_NOLOCAL=1 with UCX_TLS=tcp (Debian's MPICH is ch4:ucx)
# BENCH_ROUNDS rounds (3) alternating the libraries; each row's median
# (scripts/median_rows.awk). Output: build/bench/net/net.md, a markdown table
# of latency (us) and bandwidth (MB/s) at key sizes, and bibw (MB/s).
#
# BENCH_NET_RIG=1: the 2 ranks run on two network namespaces of the rig
# (scripts/netns-rig.sh, root needed; tests/multinode's lock is taken so no
# test rig runs at the same time): gompi by gompirun --host n1,n2 with the
# rig's launch agent, MPICH by Hydra with that agent (UCX tcp on eth0), Open
# MPI by mpirun --host with the agent as its rsh agent (ob1, tcp on eth0).
# Output then in build/bench/net-rig.
set -euo pipefail
if [ "${BENCH_NET_RIG:-}" = 1 ] && [ -z "${GOMPI_RIG_PREFIX:-}" ]; then
  cd "$(dirname "$0")/.."
  exec flock "${TMPDIR:-/tmp}/gompi-netns-rig.lock" scripts/netns-rig.sh run "$0" "$@"
fi
cd "$(dirname "$0")/.."
root=$PWD
out=$root/build/bench/net
[ -n "${GOMPI_RIG_PREFIX:-}" ] && out=$root/build/bench/net-rig
mkdir -p "$out"
rounds=${BENCH_ROUNDS:-3}
read -r -a libs <<< "${BENCH_LIBS:-gompi openmpi mpich}"
# BENCH_OSU_ROOT: OSU builds elsewhere (e.g. another checkout's build/osu);
# gompi's then run on this checkout's library (LD_LIBRARY_PATH wins over
# their RUNPATH).
osu=${BENCH_OSU_ROOT:-$root/build/osu}
p2p() { echo "$osu/$1/osu/c/mpi/pt2pt/standard"; }
for lib in "${libs[@]}"; do
  if [ ! -x "$(p2p "$lib")/osu_latency" ]; then
    echo "== building OSU 7.4 against $lib (log $out/build_$lib.log)" >&2
    OSU_TEST_LIB=$lib go test ./tests/osu -run 'TestOSU/programs$' -count=1 -timeout 60m \
      > "$out/build_$lib.log" 2>&1 || true
  fi
  [ -x "$(p2p "$lib")/osu_latency" ] || { echo "no OSU build for $lib: see $out/build_$lib.log" >&2; exit 1; }
done

agent=$root/scripts/netns-agent.sh
launch() {
  if [ -n "${GOMPI_RIG_PREFIX:-}" ]; then
    case $1 in
    gompi) echo "build/bin/gompirun -n 2 --host n1:1,n2:1 --launch-agent $agent -x LD_LIBRARY_PATH=$root/build/lib" ;;
    openmpi) echo "mpirun.openmpi --allow-run-as-root -n 2 --host n1:1,n2:1 --mca plm_rsh_agent $agent --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include eth0 --mca oob_tcp_if_include ${GOMPI_RIG_PREFIX}br,eth0" ;;
    mpich) echo "mpiexec.mpich -n 2 -ppn 1 -hosts n1,n2 -iface ${GOMPI_RIG_PREFIX}br -launcher ssh -launcher-exec $agent -genv UCX_TLS tcp -genv UCX_NET_DEVICES eth0" ;;
    esac
    return
  fi
  case $1 in
  gompi) echo "build/bin/gompirun -n 2 -x GOMPI_NODE_SPLIT=rank -x LD_LIBRARY_PATH=$root/build/lib" ;;
  openmpi) echo "mpirun.openmpi --allow-run-as-root -n 2 --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo" ;;
  mpich) echo "env MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp UCX_NET_DEVICES=lo mpiexec.mpich -n 2" ;;
  esac
}

rm -f "$out"/*_r*.txt
for r in $(seq "$rounds"); do
  for lib in "${libs[@]}"; do
    for b in latency bw bibw; do
      # shellcheck disable=SC2046
      timeout 600 $(launch "$lib") "$(p2p "$lib")/osu_$b" -m 1:4194304 > "$out/${lib}_${b}_r$r.txt" 2>&1 \
        || echo "$lib osu_$b round $r failed: $(tail -2 "$out/${lib}_${b}_r$r.txt")" >&2
    done
  done
done
for lib in "${libs[@]}"; do
  for b in latency bw bibw; do
    cat "$out"/${lib}_${b}_r*.txt | awk '/^[0-9]+[[:space:]]/ { print "'$b'", $1, $2 }' | awk -f scripts/median_rows.awk > "$out/${lib}_$b.txt"
  done
done

val() { [ -f "$out/$1_$2.txt" ] && awk -v s="$3" '$2 == s { print $3 }' "$out/$1_$2.txt"; true; }
{
  echo "| size | gompi lat (us) | Open MPI | MPICH | gompi bw (MB/s) | Open MPI | MPICH | gompi bibw (MB/s) | Open MPI | MPICH |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for s in 1 8 1024 8192 16384 32768 65536 131072 262144 1048576 4194304; do
    echo "| $s | $(val gompi latency $s) | $(val openmpi latency $s) | $(val mpich latency $s) | $(val gompi bw $s) | $(val openmpi bw $s) | $(val mpich bw $s) | $(val gompi bibw $s) | $(val openmpi bibw $s) | $(val mpich bibw $s) |"
  done
} | tee "$out/net.md"

#!/usr/bin/env bash
# Network point-to-point across "nodes" of one machine: OSU 7.4's osu_latency
# and osu_bw (tests/osu's cached builds under build/osu/<lib>/osu) with 2
# ranks that do not share memory:
#   gompi   GOMPI_NODE_SPLIT=rank: btl/ofi over libfabric tcp;ofi_rxm (lo)
#   openmpi --mca pml ob1 --mca btl tcp,self (TCP over lo)
#   mpich   MPIR_CVAR_NOLOCAL=1 with UCX_TLS=tcp (Debian's MPICH is ch4:ucx)
# BENCH_ROUNDS rounds (3) alternating the libraries; each row's median
# (scripts/median_rows.awk). Output: build/bench/net/net.md, a markdown table
# of latency (us) and bandwidth (MB/s) at key sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/build/bench/net
mkdir -p "$out"
rounds=${BENCH_ROUNDS:-3}
libs=(gompi openmpi mpich)
p2p() { echo "$root/build/osu/$1/osu/c/mpi/pt2pt/standard"; }
for lib in "${libs[@]}"; do
  if [ ! -x "$(p2p "$lib")/osu_latency" ]; then
    echo "== building OSU 7.4 against $lib (log $out/build_$lib.log)" >&2
    OSU_TEST_LIB=$lib go test ./tests/osu -run 'TestOSU/programs$' -count=1 -timeout 60m \
      > "$out/build_$lib.log" 2>&1 || true
  fi
  [ -x "$(p2p "$lib")/osu_latency" ] || { echo "no OSU build for $lib: see $out/build_$lib.log" >&2; exit 1; }
done

launch() {
  case $1 in
  gompi) echo "build/bin/gompirun -n 2 -x GOMPI_NODE_SPLIT=rank" ;;
  openmpi) echo "mpirun.openmpi --allow-run-as-root -n 2 --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo" ;;
  mpich) echo "env MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp UCX_NET_DEVICES=lo mpiexec.mpich -n 2" ;;
  esac
}

rm -f "$out"/*_r*.txt
for r in $(seq "$rounds"); do
  for lib in "${libs[@]}"; do
    for b in latency bw; do
      # shellcheck disable=SC2046
      timeout 600 $(launch "$lib") "$(p2p "$lib")/osu_$b" -m 1:4194304 > "$out/${lib}_${b}_r$r.txt" 2>&1 \
        || echo "$lib osu_$b round $r failed: $(tail -2 "$out/${lib}_${b}_r$r.txt")" >&2
    done
  done
done
for lib in "${libs[@]}"; do
  for b in latency bw; do
    cat "$out"/${lib}_${b}_r*.txt | awk '/^[0-9]+[[:space:]]/ { print "'$b'", $1, $2 }' | awk -f scripts/median_rows.awk > "$out/${lib}_$b.txt"
  done
done

val() { awk -v s="$3" '$2 == s { print $3 }' "$out/$1_$2.txt"; }
{
  echo "| size | gompi lat (us) | Open MPI | MPICH | gompi bw (MB/s) | Open MPI | MPICH |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  for s in 1 8 1024 8192 65536 262144 1048576 4194304; do
    echo "| $s | $(val gompi latency $s) | $(val openmpi latency $s) | $(val mpich latency $s) | $(val gompi bw $s) | $(val openmpi bw $s) | $(val mpich bw $s) |"
  done
} | tee "$out/net.md"

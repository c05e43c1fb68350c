#!/usr/bin/env bash
# MPI-IO benchmark (issue 26): IMB-IO's S_Write_indv, P_Write_shared,
# C_Write_expl and C_Read_expl plus a noncontiguous collective checkpoint
# (bench/io_ckpt.c: a 3-D subarray per rank, write_all/read_all) on gompi,
# Open MPI (OMPIO) and MPICH (ROMIO), side by side, at 2 and 4 ranks, on a
# tmpfs (/dev/shm) and on the disk (BENCH_IO_DISK, default build/bench/iodisk).
# Prints MB/s at the largest message size (IMB: first mode block of each
# benchmark; 4 MiB) and gompi's ratio to the better peer (target >= 1).
# BENCH_MODE=quick: small sizes and one rank count. Call: scripts/bench_io.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/build/bench/io
mkdir -p "$out"
quick=${BENCH_MODE:-full}
disk=${BENCH_IO_DISK:-$root/build/bench/iodisk}
mkdir -p "$disk"
msglog=22; edge=160; nps="2 4"
if [ "$quick" = quick ]; then msglog=18; edge=64; nps="2"; fi

tarball=$root/../shared/benchmarks/mpi-benchmarks-46e8757a.tar.gz
build_imb() { # impl cc cxx
  local d=$out/imb-$1
  if [ ! -x "$d/mpi-benchmarks/IMB-IO" ]; then
    rm -rf "$d" && mkdir -p "$d" && tar -xzf "$tarball" -C "$d"
    make -C "$d/mpi-benchmarks" CC="$2" CXX="$3" IMB-IO >"$d/build.log" 2>&1
  fi
}
build_imb gompi "$root/build/bin/gompicc" "$root/build/bin/gompicxx"
build_imb openmpi mpicc.openmpi "mpicxx.openmpi -DOMPI_SKIP_MPICXX=1"
build_imb mpich mpicc.mpich "mpicxx.mpich -DMPICH_SKIP_MPICXX=1"
build/bin/gompicc -O2 -o "$out/ckpt_gompi" bench/io_ckpt.c
mpicc.openmpi -O2 -o "$out/ckpt_openmpi" bench/io_ckpt.c 2>/dev/null
mpicc.mpich -O2 -o "$out/ckpt_mpich" bench/io_ckpt.c 2>/dev/null

launch() { # impl np cmd...
  local impl=$1 np=$2; shift 2
  case $impl in
  gompi) "$root/build/bin/gompirun" -n "$np" "$@" ;;
  openmpi) mpirun.openmpi --allow-run-as-root --oversubscribe -n "$np" "$@" ;;
  mpich) mpiexec.mpich -n "$np" "$@" ;;
  esac
}

# imb_rows FILE: "name MB/s" for the largest size of each benchmark's first block.
imb_rows() {
  awk '/^# Benchmarking/ { name=$3; blk[name]++; next }
       name != "" && blk[name] == 1 && $1 ~ /^[0-9]+$/ && NF >= 4 { last[name]=$NF }
       END { for (n in last) print n, last[n] }' "$1"
}

printf "%-8s %-3s %-16s %10s %10s %10s %8s\n" fs np benchmark gompi openmpi mpich ratio
for fs in tmpfs disk; do
  dir=/dev/shm/gompi-bench-io.$$; [ $fs = disk ] && dir=$disk/run.$$
  mkdir -p "$dir"
  for np in $nps; do
    declare -A val=()
    for impl in gompi openmpi mpich; do
      f=$out/${impl}_${fs}_$np.txt
      (cd "$dir" && launch $impl "$np" "$out/imb-$impl/mpi-benchmarks/IMB-IO" -msglog "$msglog:$msglog" -iter 10 \
        -time 2 S_Write_indv P_Write_shared C_Write_expl C_Read_expl) >"$f" 2>&1 || echo "# $impl failed" >>"$f"
      while read -r name v; do val[$name,$impl]=$v; done < <(imb_rows "$f")
      while read -r name v; do val[$name,$impl]=$v; done < <(launch $impl "$np" "$out/ckpt_$impl" "$dir" "$edge" 2>/dev/null || true)
    done
    for b in S_Write_Indv P_Write_Shared C_Write_Expl C_Read_Expl ckpt_write_all ckpt_read_all; do
      g=${val[$b,gompi]:-0} o=${val[$b,openmpi]:-0} m=${val[$b,mpich]:-0}
      ratio=$(awk -v g="$g" -v o="$o" -v m="$m" 'BEGIN { b = o > m ? o : m; if (b > 0) printf "%.2f", g / b; else print "-" }')
      printf "%-8s %-3s %-16s %10s %10s %10s %8s\n" $fs "$np" $b "$g" "$o" "$m" "$ratio"
    done
    unset val
  done
  rm -rf "$dir"
done

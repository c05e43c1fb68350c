#!/bin/bash
# What this machine allows, without any MPI (docs/performance.md cites it):
# one and two process_vm_readv streams between processes, allgather and
# alltoall of 4 processes by direct single copies, a pipelined shared-memory
# broadcast to 3 readers with 4 processes on the CPUs, and a 4-process
# barrier that yields the core, and what a handoff between two processes on
# one core costs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/floor
mkdir -p "$out"
for p in cma_read cma_exchange shm_bcast yield_barrier handoff; do
  ${CC:-gcc} -O2 -Wall -o "$out/$p" "bench/floor/$p.c"
done
"$out/cma_read" 1048576 300 1 0
"$out/cma_read" 1048576 300 2 0
"$out/cma_read" 1048576 300 2 1
"$out/cma_read" 65536 3000 2 0
for piece in 32768 131072; do
  "$out/shm_bcast" 4 1048576 $piece 200
done
"$out/shm_bcast" 4 262144 32768 500
for mode in 0 1 2; do
  "$out/cma_exchange" 4 65536 2000 $mode
  "$out/cma_exchange" 4 1048576 100 $mode
done
for polls in 0 10; do
  "$out/yield_barrier" 4 100000 $polls
done
"$out/handoff" 100000

#!/usr/bin/env bash
# make demo: a small multi-rank job. Four ranks report where they run, then two
# ranks measure latency and bandwidth over shared memory.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/demo
mkdir -p $out
build/bin/gompicc -O2 -o $out/hello examples/hello_world.c
build/bin/gompicc -O2 -o $out/pt2pt bench/pt2pt.c
echo "== gompirun -n 4 hello_world"
build/bin/gompirun -n 4 --timeout 60 $out/hello
echo
echo "== gompirun -n 2 --bind-to core pt2pt quick"
build/bin/gompirun -n 2 --bind-to core --timeout 300 $out/pt2pt quick > $out/pt2pt.txt
go run ./cmd/benchtable gompi=$out/pt2pt.txt
echo
# A picture: OSU's latency on gompi when the OSU build is there (make bench
# or the OSU test made it; building it here would take minutes), drawn
# by gompiplot; the pictures of the last make bench otherwise.
lat=$(find build/osu/gompi/osu/c/mpi/pt2pt -name osu_latency -type f -perm -u+x 2>/dev/null | head -1)
if [ -n "$lat" ]; then
  echo "== gompirun -n 2 --bind-to core osu_latency -m 1:65536, drawn by gompiplot"
  build/bin/gompirun -n 2 --bind-to core --timeout 300 "$lat" -m 1:65536 -i 200 -x 20 > $out/osu_latency.txt
  build/bin/gompiplot -o $out gompi@2=$out/osu_latency.txt 2>/dev/null
  echo "picture: $out/osu_latency_np2.png (gompiplot draws any OSU or IMB output the same way)"
fi
echo "make bench's pictures (OSU and IMB against Open MPI and MPICH): docs/img/bench_summary.png and docs/img/osu_*.png, imb_*.png; tables in docs/performance.md"

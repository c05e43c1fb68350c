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

#!/bin/bash
# Records what MPICH returns for each case of the generated NULL-argument test
# (cmd/gennullargs) into tests/c/nullargs_mpich.txt: the reference the test's
# expectations come from. A case that kills or hangs MPICH is recorded as
# CRASH or HANG and the run resumes after it.
#   scripts/nullargs_mpich.sh [build/lib/libgompi.so]
set -euo pipefail
cd "$(dirname "$0")/.."
lib=${1:-build/lib/libgompi.so}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./cmd/gennullargs -lib "$lib" -mpich "" -o "$tmp/nullargs.c"
mpicc.mpich -O0 -w "$tmp/nullargs.c" -o "$tmp/nullargs"
out=tests/c/nullargs_mpich.txt
{
  echo "# What MPICH $(mpichversion | awk '/Version/{print $3}') returns for each case of cmd/gennullargs"
  echo "# (MPI_ERRORS_RETURN): function, argument passed as NULL, class. Made by scripts/nullargs_mpich.sh."
} > "$out"
first=0
while :; do
  set +e
  NULLARGS_REPORT=1 timeout 20 mpiexec.mpich -n 1 "$tmp/nullargs" "$first" > "$tmp/run.txt" 2>/dev/null
  rc=$?
  set -e
  grep -E "^MPI_[A-Za-z0-9_]+ [a-z_0-9]+ [A-Z_a-z0-9]+$" "$tmp/run.txt" >> "$out" || true
  [ $rc -eq 0 ] && break
  last=$(grep '^# ' "$tmp/run.txt" | tail -1 || true)
  # No case printed after a resume: the crash recorded last was the last case
  # (the failed exit is MPICH's, after it).
  [ -z "$last" ] && [ "$first" -gt 0 ] && break
  [ -z "$last" ] && { echo "MPICH run failed before any case (rc $rc)" >&2; exit 1; }
  read -r _ idx fn param <<< "$last"
  what=CRASH; [ $rc -eq 124 ] && what=HANG
  echo "$fn $param $what" >> "$out"
  first=$((idx + 1))
done
echo "wrote $out ($(grep -vc '^#' "$out") cases)"

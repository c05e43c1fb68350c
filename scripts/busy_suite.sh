#!/bin/bash
# The whole test suite with a CPU hog beside it (docs/reliability.md): the
# pass make test runs, then the race-detector pass, each timed. The hog is
# stress-ng --cpu 4 (two busy loops per core of a 2-core machine), or busy
# shell loops where stress-ng is missing. Logs: build/busy-*.log.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
hogs=${BUSY_HOGS:-4}
make build >/dev/null || exit 1
if command -v stress-ng >/dev/null; then
  stress-ng --cpu "$hogs" --timeout 2h --quiet &
  hog=$!
else
  echo "stress-ng not found: $hogs busy shell loops instead"
  for _ in $(seq "$hogs"); do (while :; do :; done) & done
  hog=""
fi
stop() { if [ -n "$hog" ]; then kill "$hog"; else kill $(jobs -p); fi 2>/dev/null; wait 2>/dev/null; }
trap stop EXIT
echo "hog: $hogs CPU workers on $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
t0=$(date +%s)
$GO test -count=1 -timeout 30m ./... >build/busy-test.log 2>&1 || status=1
t1=$(date +%s)
echo "go test ./...: $([ $status = 0 ] && echo pass || echo FAIL) in $((t1 - t0)) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
grep -E '^(ok|FAIL|---)' build/busy-test.log | grep -v '^ok' | head -40
rs=0
GOFLAGS=-race $GO test -count=1 -timeout 20m $($GO list ./... | grep -v /tests/) ./tests/go >build/busy-race.log 2>&1 || rs=1
t2=$(date +%s)
echo "race pass: $([ $rs = 0 ] && echo pass || echo FAIL) in $((t2 - t1)) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
grep -E '^(ok|FAIL|---)' build/busy-race.log | grep -v '^ok' | head -40
exit $((status | rs))

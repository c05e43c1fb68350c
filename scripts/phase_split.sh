#!/usr/bin/env bash
# phase_split.sh DIR FORMAT IMPLS...: the rounds of each library split by the
# phase measured before and after them (fast: cache-line round trip under
# PHASE_NS, 150 by default, both times; slow: at least that both times; a
# round that saw both phases counts for neither; bench/floor/core_rtt.c says
# why), each set merged into its median like the main table, one markdown
# table per phase with the libraries that had rounds in it.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1 fmt=$2; shift 2
limit=${PHASE_NS:-150}
for phase in fast slow; do
  args=()
  for impl in "$@"; do
    files=()
    for p in "$dir"/$(printf "$fmt" "$impl")_r*.phase; do
      [ -e "$p" ] || continue
      IFS=/ read -r a b < "$p"
      [[ $a =~ ^[0-9]+$ && ${b:-} =~ ^[0-9]+$ ]] || continue
      if { [ $phase = fast ] && [ "$a" -lt "$limit" ] && [ "$b" -lt "$limit" ]; } ||
        { [ $phase = slow ] && [ "$a" -ge "$limit" ] && [ "$b" -ge "$limit" ]; }; then
        files+=("${p%.phase}.txt")
      fi
    done
    [ ${#files[@]} -gt 0 ] || continue
    cat "${files[@]}" | awk -f scripts/median_rows.awk > "$dir/$(printf "$fmt" "$impl")_$phase.txt"
    args+=("$impl(${#files[@]})=$dir/$(printf "$fmt" "$impl")_$phase.txt")
  done
  [ ${#args[@]} -ge 2 ] || { echo; echo "#### $phase phase: fewer than two libraries had rounds in it"; continue; }
  echo
  echo "#### $phase phase (round trip $([ $phase = fast ] && echo under || echo from) $limit ns before and after; rounds per library in brackets)"
  echo
  go run ./cmd/benchtable "${args[@]}"
done

# Sourced by the benchmark scripts. run FILE COMMAND... runs one benchmark
# with its stdout in FILE and its stderr next to it, reporting a failure
# without stopping the comparison.
mkdir -p build/floor
${CC:-gcc} -O2 -Wall -pthread -o build/floor/core_rtt bench/floor/core_rtt.c

run() {
  local f=$1; shift
  # The machine's phase just before and just after (bench/floor/core_rtt.c
  # says why), "before/after" in ns. A run that started in the fast phase and
  # ended in the slow one is run again, up to BENCH_PHASE_RETRIES times (1),
  # for every library alike: its figures mix the phases at random.
  local before after try=0
  while :; do
    before=$(fast_phase)
    echo "== $(basename "$f" .txt) (cache-line round trip before: $before ns): $*" >&2
    if ! timeout 1200 "$@" > "$f" 2> "${f%.txt}.err"; then
      echo "   $(basename "$f" .txt) failed (see ${f%.txt}.err)" >&2
    fi
    after=$(core_rtt)
    if [ "$try" -ge "${BENCH_PHASE_RETRIES:-1}" ] || ! slow_end "$before" "$after"; then
      break
    fi
    try=$((try + 1))
    echo "   ended in the slow phase ($after ns): again" >&2
  done
  echo "$before/$after" > "${f%.txt}.phase"
}

# slow_end BEFORE AFTER: the run started fast and ended slow.
slow_end() {
  [[ $1 =~ ^[0-9]+$ && $2 =~ ^[0-9]+$ ]] && [ "$1" -lt "${PHASE_NS:-150}" ] && [ "$2" -ge "${PHASE_NS:-150}" ]
}

# fast_phase waits up to BENCH_PHASE_WAIT seconds (20; 0: not at all) for
# the fast phase (round trip under PHASE_NS, 150) so that every library
# starts its runs in the same one, and prints the last round trip measured.
fast_phase() {
  local v end=$((SECONDS + ${BENCH_PHASE_WAIT:-20}))
  while :; do
    v=$(core_rtt)
    if ! [[ $v =~ ^[0-9]+$ ]] || [ "$v" -lt "${PHASE_NS:-150}" ] || [ $SECONDS -ge $end ]; then
      echo "$v"
      return
    fi
    sleep 1
  done
}

core_rtt() {
  if [ "$(nproc)" -lt 2 ] || ! timeout 10 build/floor/core_rtt 2>/dev/null; then
    echo "?"
  fi
}

# rotated R WORDS...: the words rotated left by R-1, so every library leads
# some rounds (this machine's fast and slow phases last seconds, and the
# first run of a round tended to meet a different phase than the last).
rotated() {
  local r=$1; shift
  local a=("$@") n=$#
  for ((i = 0; i < n; i++)); do echo "${a[$(( (i + r - 1) % n ))]}"; done
}

# phases DIR FORMAT IMPLS...: one line per library, the cache-line round trips
# (ns) measured before and after each of its rounds (DIR/FORMAT_r<N>.phase,
# FORMAT's %s the library).
phases() {
  local dir=$1 pat=$2; shift 2
  for impl in "$@"; do
    printf '%s:' "$impl"
    for f in $(ls "$dir"/$(printf "$pat" "$impl")_r*.phase 2>/dev/null | sort -V); do printf ' %s' "$(cat "$f")"; done
    echo
  done
}

# Sourced by the benchmark scripts. run FILE COMMAND... runs one benchmark
# with its stdout in FILE and its stderr next to it, reporting a failure
# without stopping the comparison.
mkdir -p build/floor
${CC:-gcc} -O2 -Wall -pthread -o build/floor/core_rtt bench/floor/core_rtt.c

run() {
  local f=$1; shift
  # The machine's phase just before (bench/floor/core_rtt.c says why).
  if [ "$(nproc)" -lt 2 ] || ! timeout 10 build/floor/core_rtt > "${f%.txt}.phase" 2>/dev/null; then
    echo "?" > "${f%.txt}.phase"
  fi
  echo "== $(basename "$f" .txt) (cache-line round trip $(cat "${f%.txt}.phase") ns): $*" >&2
  if ! timeout 1200 "$@" > "$f" 2> "${f%.txt}.err"; then
    echo "   $(basename "$f" .txt) failed (see ${f%.txt}.err)" >&2
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

# phases PREFIX...: one line per library, the cache-line round trip (ns)
# measured before each of its rounds, files PREFIX<impl>..._r<N>.phase.
phases() {
  local dir=$1 pat=$2; shift 2
  for impl in "$@"; do
    printf '%s:' "$impl"
    for f in $(ls "$dir"/$(printf "$pat" "$impl")_r*.phase 2>/dev/null | sort -V); do printf ' %s' "$(cat "$f")"; done
    echo
  done
}

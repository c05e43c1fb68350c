# Sourced by the benchmark scripts. run FILE COMMAND... runs one benchmark
# with its stdout in FILE and its stderr next to it, reporting a failure
# without stopping the comparison.
run() {
  local f=$1; shift
  echo "== $(basename "$f" .txt): $*" >&2
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

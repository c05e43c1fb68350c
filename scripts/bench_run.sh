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

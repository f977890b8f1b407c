#!/usr/bin/env bash
# Runs every fuzz target for FUZZ_SECONDS (default 60) each from the committed seed corpus; fails on any crash.
# New interesting inputs go to .build/fuzz/work/<target>, never into the committed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
# FUZZ_SEED fixes libFuzzer's mutations too (CI sets it, so a red run can be replayed); unset, each run explores anew.
# (The array is expanded as ${seed_flag[@]+…} below because bash before 4.4 calls an empty array unbound under set -u.)
seed_flag=()
[ -n "${FUZZ_SEED:-}" ] && seed_flag=(-seed="$FUZZ_SEED")
for target in fault-spec query fixtures websocket-relay sse websocket; do
  work=.build/fuzz/work/$target
  mkdir -p "$work"
  rm -f .build/fuzz/crash-$target-*
  case $target in
    sse|websocket) binary=.build/fuzz/fuzz-$target ;;
    *) binary=.build/fuzz/fuzz-server ;;
  esac
  log=.build/fuzz/$target.log
  if [ ! -x "$binary" ]; then
    echo "fuzz: $binary is missing; build it with fuzz/build.sh (make fuzz does)" >&2
    exit 1
  fi
  echo "fuzz: $target for ${seconds}s"
  # Swift's own backtracer reads the crashed process's memory, which ASan reports as a second, unrelated crash;
  # with it off, the log shows the runtime's own message (e.g. "Fatal error: …") and ASan's stack.
  # The exit status is kept, not swallowed: it is judged below, after any crash has been reported.
  status=0
  SWIFT_BACKTRACE=enable=no UNDERSTUDY_FUZZ_TARGET=$target "$binary" ${seed_flag[@]+"${seed_flag[@]}"} -max_total_time="$seconds" -max_len=8192 \
    -timeout=10 -artifact_prefix=".build/fuzz/crash-$target-" "$work" "fuzz/corpus/$target" \
    > "$log" 2>&1 || status=$?
  # The summary lines, when there are any (a fuzzer that never started has none; that is judged below).
  if ! grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs|ERROR|SUMMARY" "$log"; then
    echo "fuzz: $target printed no libFuzzer summary" >&2
  fi
  if ls .build/fuzz/crash-$target-* >/dev/null 2>&1; then
    crash=$(ls .build/fuzz/crash-$target-* | head -1)
    # CI keeps only the log, so the input and the trace are printed here, where they can be replayed from.
    grep -E "Fatal error|^ +#[0-9]+ " ".build/fuzz/$target.log" | head -30 >&2 || true
    echo "fuzz: $target found a crash: $crash; the input, as Python bytes:" >&2
    python3 -c 'import sys; print(repr(open(sys.argv[1], "rb").read()[:2048]))' "$crash" >&2
    exit 1
  fi
  # No crash: the run counts only if libFuzzer exited 0 and reported finishing ("Done N runs in S second(s)").
  # Anything else (the binary failed to start, a sanitizer or libFuzzer error without an artifact, a signal)
  # fails the run, with the end of the log to say why.
  if [ "$status" -ne 0 ] || ! grep -qE "Done [0-9]+ runs" "$log"; then
    why="exit status $status"
    grep -qE "Done [0-9]+ runs" "$log" || why="$why, no \"Done N runs\" in $log"
    echo "fuzz: $target did not finish ($why); the end of its log:" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
done
# The raw-socket fuzzer: mutated HTTP at a live server, then /health must still answer.
iterations=$(( seconds * 100 ))
python3 fuzz/socket-fuzz.py --iterations "$iterations" --seed "${FUZZ_SEED:-1}" --binary .build/debug/understudy
echo "fuzz: no crashes"

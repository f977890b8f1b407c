#!/usr/bin/env bash
# The contract check: is openapi/openapi.yaml valid, and does a live server keep it and the golden cases?
#
#   scripts/contract.sh                         # everything below except the fault pass
#   CONTRACT_FAULT_PASS=1 scripts/contract.sh   # also the pass with `X-Understudy-Fault: status=503` on every request
#   CONTRACT_SMOKE=1 CONTRACT_FAULT_PASS=1 scripts/contract.sh   # `make test`: each pass a seeded, bounded smoke
#
# Steps, each bounded in time; the first failure does not stop the later steps, but any failure makes the exit
# status non-zero:
#   1. the venv .venv (gitignored) with the pinned validator and schemathesis (scripts/contract-requirements.txt);
#   2. openapi-spec-validator on openapi/openapi.yaml, then scripts/openapi-lint.py on it (constructs that
#      swift-openapi-generator rejects, skips with a warning or reads differently from the server);
#   3. a server (${UNDERSTUDY_BIN:-.build/debug/understudy} --port 0 --quiet) per pass and one for the golden
#      cases, killed on exit (trap); the passes run at once, each against its own server (CONTRACT_PARALLEL=0:
#      one after another);
#   4. schemathesis, all checks (every built-in check is on unless scripts/schemathesis.toml turns one off for an
#      operation, with its reason; `--checks all` is not passed because it would override those), fixed seed,
#      on every public operation, /products/stream included (kept to two events by scripts/schemathesis.toml).
#      The admin API is left out of this pass by path regex: fuzzing it changes the server every other operation
#      talks to (a random rule can make every later request hang or fail);
#   5. schemathesis on the admin API alone. POST /__understudy/offline is left out: it closes the listener for up
#      to 600 s, and no later request of the run could connect;
#   6. (CONTRACT_FAULT_PASS=1) schemathesis on the public operations again, every request carrying
#      `X-Understudy-Fault: status=503`: each must answer a documented 503 `{"message"}` with the rate-limit
#      headers. not_a_server_error is off there (the 5xx is the point), and so are ignored_auth and
#      unsupported_method: the fault answers before auth and routing;
#   7. schemathesis on the public operations through a proxy holding a server to the document (`--upstream URL
#      --spec openapi/openapi.yaml`), valid requests mostly (--mode positive); the proxy's contract report
#      (GET /__understudy/violations) must then name no violation of a reply: the API keeps its own document;
#   8. the golden cases of Sources/UnderstudyTesting/Resources/contracts/ (scripts/contract-replay.py), the
#      isolated ones each on a server of its own started from the same binary, while the passes run.
#
# A full pass runs schemathesis' four phases (examples, coverage, fuzzing, stateful) with 100 examples an
# operation: minutes each on two cores, most of it hypothesis generating the fuzzing phase's data. The smoke
# (CONTRACT_SMOKE=1) runs the examples, coverage and stateful phases with 5 examples: every operation, every
# parameter's boundary and negative values from the coverage phase, the same seed every run, well under a minute.
#
# Settings (environment): UNDERSTUDY_BIN, CONTRACT_SEED (default 20261129), CONTRACT_MAX_EXAMPLES (100; smoke 5),
# CONTRACT_PHASES (all four; smoke examples,coverage,stateful), CONTRACT_PASS_SECONDS (time bound of each
# schemathesis pass, default 900; smoke 300), CONTRACT_PARALLEL (default 1), CONTRACT_WORKERS (default 1: with
# more, hypothesis can trip a CPython 3.11 ast race, "AST constructor recursion depth mismatch"),
# CONTRACT_REPORT_DIR (write schemathesis' JUnit reports there and keep them; unset: no reports, so none is
# named that the cleanup would delete).
set -uo pipefail
cd "$(dirname "$0")/.."
# timeout(1) is GNU coreutils'; macOS has none, so scripts/timeout.py stands in there.
command -v timeout >/dev/null 2>&1 || timeout() { python3 scripts/timeout.py "$@"; }

BIN=${UNDERSTUDY_BIN:-.build/debug/understudy}
SEED=${CONTRACT_SEED:-20261129}
if [ "${CONTRACT_SMOKE:-0}" = 1 ]; then
    MAX_EXAMPLES=${CONTRACT_MAX_EXAMPLES:-5}
    PHASES=${CONTRACT_PHASES:-examples,coverage,stateful}
    PASS_SECONDS=${CONTRACT_PASS_SECONDS:-300}
else
    MAX_EXAMPLES=${CONTRACT_MAX_EXAMPLES:-100}
    PHASES=${CONTRACT_PHASES:-examples,coverage,fuzzing,stateful}
    PASS_SECONDS=${CONTRACT_PASS_SECONDS:-900}
fi
PARALLEL=${CONTRACT_PARALLEL:-1}
WORKERS=${CONTRACT_WORKERS:-1}
SPEC=openapi/openapi.yaml
VENV=.venv
ADMIN_PATHS='^/__understudy/'

WORK=$(mktemp -d "${TMPDIR:-/tmp}/understudy-contract.XXXXXX")
REPORTS=${CONTRACT_REPORT_DIR:-}
# Hypothesis keeps caches in ./.hypothesis by default; keep them in the temporary directory instead.
export HYPOTHESIS_STORAGE_DIRECTORY=$WORK/hypothesis
SERVERS=()
cleanup() {
    local pid
    for pid in "${SERVERS[@]}"; do
        kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

FAILED=()
step() { printf '\n== %s\n' "$*"; }
fail() { FAILED+=("$1"); printf 'FAILED: %s\n' "$1"; }

# start_server NAME [OPTIONS...]: starts a server (with OPTIONS instead of the fixtures); sets URL. Waits up to
# 60 s for the line `... listening on http://127.0.0.1:PORT`.
start_server() {
    local name=$1 out=$WORK/server-$1.out
    shift
    # fixtures/collections adds your own collection `books` (products and users stay the built-in ones), so the
    # spec's `/{collection}` operations have something to answer.
    local options=(--fixtures fixtures/collections)
    [ "$#" -gt 0 ] && options=("$@")
    "$BIN" --port 0 --quiet "${options[@]}" >"$out" 2>"$WORK/server-$name.err" &
    local pid=$!
    SERVERS+=("$pid")
    URL=
    for _ in $(seq 600); do
        URL=$(sed -n '1s|.*listening on \(http://127\.0\.0\.1:[0-9]*\).*|\1|p' "$out" 2>/dev/null)
        [ -n "$URL" ] && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "the server did not start: $BIN" >&2
    cat "$WORK/server-$name.err" >&2
    return 1
}

stop_server() {
    local pid=${SERVERS[-1]}
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    unset 'SERVERS[-1]'
}

# schemathesis NAME [options...]: one bounded pass against $URL.
schemathesis_pass() {
    local name=$1
    shift
    local report=()
    [ -n "$REPORTS" ] && report=(--report junit --report-junit-path "$REPORTS/$name.xml")
    timeout --kill-after=10 "$PASS_SECONDS" "$VENV/bin/schemathesis" --config-file scripts/schemathesis.toml \
        run "$SPEC" --url "$URL" --seed "$SEED" --max-examples "$MAX_EXAMPLES" --phases "$PHASES" \
        --workers "$WORKERS" --request-timeout 10 --max-redirects 0 --no-color --output-sanitize false \
        "${report[@]}" "$@"
    local status=$?
    [ "$status" -eq 124 ] && echo "schemathesis pass '$name' ran out of its ${PASS_SECONDS}s"
    return "$status"
}

step "venv ($VENV) with scripts/contract-requirements.txt"
scripts/venv.sh || exit 1
"$VENV/bin/schemathesis" --version

step "scripts/check_workflows.py (the workflows parse, their run steps are shellcheck-clean)"
command -v shellcheck >/dev/null 2>&1 || scripts/install-deps.sh shellcheck
# The venv's PyYAML (scripts/contract-requirements.txt): a fresh machine's python3 has none.
timeout 120 "$VENV/bin/python" scripts/check_workflows.py || fail "workflows"

step "openapi-spec-validator $SPEC"
timeout 120 "$VENV/bin/openapi-spec-validator" "$SPEC" || fail "spec validation"

step "scripts/openapi-lint.py $SPEC (what swift-openapi-generator warns about or rejects)"
timeout 60 "$VENV/bin/python" scripts/openapi-lint.py "$SPEC" || fail "openapi lint"

if [ ! -x "$BIN" ]; then
    echo "no server binary at $BIN (build it, or set UNDERSTUDY_BIN)"
    exit 1
fi
[ -n "$REPORTS" ] && mkdir -p "$REPORTS"

# The schemathesis passes, each on a server of its own. With PARALLEL=1 they run at once in the background (each
# one schemathesis process with one worker, so the CPython race above cannot happen) and their output is printed
# as each finishes; otherwise one after another, each server stopped after its pass.
PASS_PIDS=()
PASS_NAMES=()
PASS_TITLES=()
# checked_pass NAME [schemathesis options...]: a pass against a proxy holding the server to the document ($URL is
# the proxy's), then its contract report (GET /__understudy/violations), which must name no violation of a reply.
checked_pass() {
    # The examples, coverage and stateful phases (every operation, each parameter's boundaries, linked calls), at
    # most 20 examples each: the full pass's fuzzing adds little here and would double the run's time.
    local PHASES=examples,coverage,stateful MAX_EXAMPLES=$(( MAX_EXAMPLES < 20 ? MAX_EXAMPLES : 20 ))
    schemathesis_pass "$@" || return 1
    timeout 30 "$VENV/bin/python" - "$URL/__understudy/violations" <<'PYTHON'
import json, sys, urllib.request
report = json.load(urllib.request.urlopen(sys.argv[1], timeout=10))
print("contract report: %d exchanges checked, %d violations, %d of them the replies'"
      % (report["exchanges"], report["violations"], report["replyViolations"]))
for broken in [b for b in report["recent"] if any(v["side"] == "response" for v in b["violations"])][-20:]:
    print("  %s %s -> %d: %s" % (broken["method"], broken["target"], broken["status"],
                                 "; ".join("%s %s: %s" % (".".join(v["location"]), v["pointer"], v["message"])
                                           for v in broken["violations"])))
sys.exit(1 if report["replyViolations"] or report["exchanges"] == 0 else 0)
PYTHON
}

# run_pass NAME TITLE [schemathesis options...]; with RUNNER=checked_pass, against a proxy in front of the pass's
# server: `--upstream URL --spec $SPEC`.
run_pass() {
    local name=$1 title=$2 runner=${RUNNER:-schemathesis_pass}
    shift 2
    [ "$PARALLEL" = 1 ] || step "$title"
    if ! start_server "$name"; then
        fail "server start ($name pass)"
        return
    fi
    if [ "$runner" = checked_pass ] && ! start_server "$name-proxy" --upstream "$URL" --spec "$SPEC"; then
        fail "proxy start ($name pass)"
        return
    fi
    if [ "$PARALLEL" = 1 ]; then
        "$runner" "$name" "$@" >"$WORK/pass-$name.log" 2>&1 &
        PASS_PIDS+=("$!")
        PASS_NAMES+=("$name")
        PASS_TITLES+=("$title (server $URL)")
    else
        echo "server: $URL"
        "$runner" "$name" "$@" || fail "schemathesis: $name pass"
        stop_server
        [ "$runner" = checked_pass ] && stop_server
    fi
}

# The public operations. The admin API is left out by path regex: fuzzing it changes the server every other
# operation talks to.
run_pass public "schemathesis on the public API" --exclude-path-regex "$ADMIN_PATHS"
# The admin API alone, less POST /__understudy/offline, which closes the listener for up to 600 s.
run_pass admin "schemathesis on the admin API" --include-path-regex "$ADMIN_PATHS" \
    --exclude-path /__understudy/offline
if [ "${CONTRACT_FAULT_PASS:-0}" = 1 ]; then
    run_pass fault "schemathesis on the public API with X-Understudy-Fault: status=503" \
        --exclude-path-regex "$ADMIN_PATHS" -H 'X-Understudy-Fault: status=503' \
        --exclude-checks not_a_server_error,ignored_auth,unsupported_method
fi

# The public operations again, through a proxy holding the server to its own document (--upstream URL --spec
# FILE): valid requests mostly (positive mode), and the proxy's contract report must name no violation of a reply.
# Requests may break the document still (its probe of odd paths, calls without credentials), and say so.
RUNNER=checked_pass run_pass checked "schemathesis through the contract-checking proxy (--upstream --spec)" \
    --exclude-path-regex "$ADMIN_PATHS" --mode positive

# The golden cases on a server of their own (while parallel passes run): the isolated ones (the admin API,
# set-ups, other server options) each get another server from $BIN.
step "golden cases (Sources/UnderstudyTesting/Resources/contracts)"
if start_server golden; then
    echo "server: $URL"
    timeout 300 "$VENV/bin/python" scripts/contract-replay.py "$URL" --server-bin "$BIN" || fail "golden cases"
else
    fail "server start (golden cases)"
fi

for index in "${!PASS_PIDS[@]}"; do
    wait "${PASS_PIDS[$index]}"
    status=$?
    step "${PASS_TITLES[$index]}"
    cat "$WORK/pass-${PASS_NAMES[$index]}.log"
    [ "$status" -eq 0 ] || fail "schemathesis: ${PASS_NAMES[$index]} pass"
done

echo
if [ "${#FAILED[@]}" -gt 0 ]; then
    printf 'contract check FAILED: %s\n' "$(IFS=';'; echo "${FAILED[*]}")"
    exit 1
fi
echo "contract check passed"

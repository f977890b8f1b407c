#!/usr/bin/env bash
# Instructions per request on the event-loop thread, counted by callgrind: unlike seconds, they do not move when
# other work shares the machine. Compares Understudy with the bare evhttp baseline and with the baseline sending
# the four headers the DummyJSON contract makes Understudy send (X-RateLimit-Limit/-Remaining/-Reset, ETag), so the
# price of those headers inside evhttp is separated from Understudy's own.
#
#   bench/instructions.sh          (after `make release bench-tools`; `make bench-instructions` does both)
set -euo pipefail
cd "$(dirname "$0")/.."
RUN_SECONDS=${RUN_SECONDS:-8}
UNDERSTUDY=${UNDERSTUDY:-.build/release/understudy}
BASELINE=.build/bench/evhttp-baseline
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_for() {  # URL: polls until it answers, for up to 60 s (programs start slowly under valgrind)
    for _ in $(seq 1 240); do curl -s -o /dev/null "$1" && return 0; sleep 0.25; done
    echo "instructions: $1 never answered" >&2
    exit 1
}

# measure NAME PID OUTFILE URL [wrk options]: drives the server with wrk, stops it, prints instructions per request.
measure() {
    local name=$1 pid=$2 out=$3 url=$4
    shift 4
    local requests
    requests=$(wrk -t1 -c4 -d"${RUN_SECONDS}s" "$@" "$url" | awk '/requests in/ {print $1}')
    kill -INT "$pid"
    wait "$pid" 2>/dev/null || true
    local total
    total=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk '/event_base_loop/ && !found {gsub(",", "", $1); print $1; found = 1}')
    printf '%-58s %8d requests  %7d instructions/request\n' "$name" "$requests" $((total / requests))
}

fault=(-H "X-Understudy-Fault: status=503")

port=$(free_port)
valgrind --tool=callgrind --callgrind-out-file="$work/understudy.out" "$UNDERSTUDY" --port "$port" --quiet \
    >/dev/null 2>&1 &
pid=$!
wait_for "http://127.0.0.1:$port/products/1"
# The baseline serves the bytes Understudy sends.
curl -s -o "$work/product.json" "http://127.0.0.1:$port/products/1"
curl -s -o "$work/fault.json" "${fault[@]}" "http://127.0.0.1:$port/products/1"
measure "Understudy GET /products/1" "$pid" "$work/understudy.out" "http://127.0.0.1:$port/products/1"

port=$(free_port)
valgrind --tool=callgrind --callgrind-out-file="$work/understudy-fault.out" "$UNDERSTUDY" --port "$port" --quiet \
    >/dev/null 2>&1 &
pid=$!
wait_for "http://127.0.0.1:$port/products/1"
measure "Understudy GET /products/1, header status=503" "$pid" "$work/understudy-fault.out" \
    "http://127.0.0.1:$port/products/1" "${fault[@]}"

printf '200\tapplication/json; charset=utf-8\t/products/1\t%s\n503\tapplication/json; charset=utf-8\t/fault\t%s\n' \
    "$work/product.json" "$work/fault.json" >"$work/map.txt"
extra=$'X-RateLimit-Limit: 100\nX-RateLimit-Remaining: 99\nX-RateLimit-Reset: 1796078338\nETag: W/"5d1-215def43nzide"'
for mode in plain headers; do
    for target in /products/1 /fault; do
        if [ "$mode" = headers ]; then export BASELINE_EXTRA_HEADERS="$extra"; else unset BASELINE_EXTRA_HEADERS; fi
        valgrind --tool=callgrind --callgrind-out-file="$work/baseline.out" "$BASELINE" "$work/map.txt" \
            >"$work/baseline.url" 2>/dev/null &
        pid=$!
        for _ in $(seq 1 240); do [ -s "$work/baseline.url" ] && break; sleep 0.25; done
        url=$(head -1 "$work/baseline.url")
        wait_for "$url$target"
        label="evhttp-c $target"
        [ "$mode" = headers ] && label="$label + X-RateLimit-* and ETag"
        # The same request as Understudy got, fault header included.
        if [ "$target" = /fault ]; then
            measure "$label" "$pid" "$work/baseline.out" "$url$target" "${fault[@]}"
        else
            measure "$label" "$pid" "$work/baseline.out" "$url$target"
        fi
        rm -f "$work/baseline.url"
    done
done

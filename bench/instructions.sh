#!/usr/bin/env bash
# Instructions per request on the event loop, counted by callgrind: unlike seconds, they do not move when other
# work shares the machine. Measures Understudy on GET /products/1, the same with `X-Understudy-Fault: status=503`,
# GET /products (the list's first page) and GET /products/1 over TLS (keep-alive; the four connections' handshakes
# are counted too, ~1 % of the row), then the bare evhttp baseline serving the same bytes (over TLS with
# Understudy's certificate for the TLS row), alone and with the headers the DummyJSON contract makes Understudy send
# (X-RateLimit-*, ETag), so the price of those headers inside evhttp is separated from Understudy's own.
#
#   bench/instructions.sh                         after `make bench-tools` and the build below; `make bench-instructions`
#                                                 does all three
#   COMPARE=/path/to/before bench/instructions.sh measures that binary too and prints it beside UNDERSTUDY's
#
# UNDERSTUDY (default .build/release-dynamic/release/understudy) is a release build linked against the Swift
# runtime's shared libraries (`swift build -c release --product understudy --scratch-path .build/release-dynamic`);
# build before and after the same way so they compare like with like (the static `make release` binary counts within
# 1 % of it). COMPARE is shown as "before", UNDERSTUDY as "after". Each binary runs as a copy without its DWARF sections: valgrind 3.19
# gives up on the DWARF 5 the toolchain's clang writes ("unhandled dwarf2 abbrev form code 0x25", then "I can't
# recover") and the program never starts; the symbol table, which names every function, is kept.
# ROUNDS=N (default 1) measures every row N times (before and after alternate); RUN_SECONDS (default 4) is each wrk
# run under valgrind; EVHTTP=0 leaves out the baseline rows, HEADERS=0 only the baseline's row with Understudy's
# headers. ROUTES=all measures every fixed route `make bench` measures (each resource's list and /1 included, ~10
# minutes) instead of the three above; ROUTES_FILE=path reads "name|path|fault" lines (fault non-empty: the request
# sends `X-Understudy-Fault: status=503`) instead. TSV=path also writes each cell as "name<TAB>side<TAB>count …",
# side being understudy (or before), evhttp-c or evhttp-c+headers, for bench/bench.py. Everything runs on 127.0.0.1.
set -euo pipefail
# Paths given on the command line are relative to where it was typed, the defaults to the repository.
[ -n "${UNDERSTUDY:-}" ] && UNDERSTUDY=$(realpath -s "$UNDERSTUDY")
[ -n "${COMPARE:-}" ] && COMPARE=$(realpath -s "$COMPARE")
cd "$(dirname "$0")/.."
RUN_SECONDS=${RUN_SECONDS:-4}
ROUNDS=${ROUNDS:-1}
EVHTTP=${EVHTTP:-1}
UNDERSTUDY=${UNDERSTUDY:-.build/release-dynamic/release/understudy}
COMPARE=${COMPARE:-}
BASELINE=.build/bench/evhttp-baseline
for program in "$UNDERSTUDY" ${COMPARE:+"$COMPARE"}; do
    [ -x "$program" ] || { echo "instructions: $program is not an executable; see the usage at the top of $0" >&2; exit 1; }
done
if [ "$EVHTTP" != 0 ] && [ ! -x "$BASELINE" ]; then
    echo "instructions: $BASELINE is missing; run \`make bench-tools\` first" >&2
    exit 1
fi
command -v valgrind >/dev/null || scripts/install-deps.sh valgrind
command -v wrk >/dev/null || scripts/install-deps.sh wrk
work=$(mktemp -d)
cleanup() {
    for pid in $(jobs -p); do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
measured_after=$work/understudy-after
objcopy --strip-debug "$UNDERSTUDY" "$measured_after"
if [ -n "$COMPARE" ]; then
    measured_before=$work/understudy-before
    objcopy --strip-debug "$COMPARE" "$measured_before"
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_for() {  # URL: polls until it answers, for up to 60 s (programs start slowly under valgrind)
    for _ in $(seq 1 240); do curl -s -o /dev/null "$1" && return 0; sleep 0.25; done
    echo "instructions: $1 never answered" >&2
    exit 1
}

HEADERS=${HEADERS:-1}
TSV=${TSV:-}
fault=(-H "X-Understudy-Fault: status=503")
# name|path|uses the fault header|over TLS
routes=("GET /products/1|/products/1||" "GET /products/1, header status=503|/products/1|fault|" "GET /products|/products||"
        "GET /products/1 over TLS|/products/1||tls")
if [ "${ROUTES:-}" = all ]; then
    routes+=("search q=phone|/products/search?q=phone||" "sort sortBy=price&order=desc|/products?sortBy=price&order=desc||"
             "select=title,price|/products?select=title,price||" "category/smartphones|/products/category/smartphones||")
    for resource in users posts comments todos carts quotes recipes; do
        routes+=("GET /$resource|/$resource||" "GET /$resource/1|/$resource/1||")
    done
fi
if [ -n "${ROUTES_FILE:-}" ]; then
    mapfile -t routes <"$ROUTES_FILE"
fi
# The local CA and leaf the TLS rows use (made by the first fetch_replies), which curl trusts through this variable.
tls_dir=$work/tls
export CURL_CA_BUNDLE=$tls_dir/understudy-ca.pem
# Only when a route is over TLS: a binary from before --tls-port (a COMPARE one) then still starts.
tls_options=()
for route in "${routes[@]}"; do
    [[ $route == *"|tls" ]] && tls_options=(--tls-port 0 --tls-dir "$tls_dir")
done

# The bytes the baseline serves, and the headers its second pass adds, come from Understudy's own replies (a run
# outside valgrind). Each route is fetched twice and the second reply kept: that is the one wrk's requests get.
fetch_replies() {  # BINARY PREFIX: writes PREFIX.N.body, .type and .head for route N
    local binary=$1 prefix=$2 port pid index=0
    port=$(free_port)
    "$binary" --port "$port" --quiet "${tls_options[@]}" >/dev/null 2>&1 &
    pid=$!
    wait_for "http://127.0.0.1:$port/products/1"
    for route in "${routes[@]}"; do
        IFS='|' read -r _ path faulted _ <<<"$route"
        local options=()
        [ -n "$faulted" ] && options=("${fault[@]}")
        curl -s -o /dev/null "${options[@]}" "http://127.0.0.1:$port$path"
        curl -s -D "$prefix.$index.head" -o "$prefix.$index.body" -w '%{content_type}' "${options[@]}" \
            "http://127.0.0.1:$port$path" >"$prefix.$index.type"
        index=$((index + 1))
    done
    kill -INT "$pid"
    wait "$pid" 2>/dev/null || true
}

# count OUT URL [wrk options]: with the program under callgrind (pid in $pid) answering URL, warms the route up,
# zeroes the counts (so start-up, the first uncached reply and the warm-up are left out), drives the route with wrk
# for RUN_SECONDS, stops the program and sets $per_request to event_base_loop's inclusive count / wrk's requests.
count() {
    local out=$1 url=$2
    shift 2
    for _ in 1 2 3; do curl -s -o /dev/null "$@" "$url"; done
    callgrind_control --zero "$pid" >/dev/null 2>&1
    local requests total
    requests=$(wrk -t1 -c4 -d"${RUN_SECONDS}s" "$@" "$url" | awk '/requests in/ {print $1}')
    kill -INT "$pid"
    wait "$pid" 2>/dev/null || true
    total=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null \
        | awk '/event_base_loop/ && !found {gsub(",", "", $1); print $1; found = 1}')
    if [ -z "$total" ] || [ -z "$requests" ] || [ "$requests" -eq 0 ]; then
        echo "instructions: no event_base_loop count in $out (requests: ${requests:-none}); run the program under" \
            "valgrind --tool=callgrind by hand to see what valgrind says" >&2
        exit 1
    fi
    per_request=$((total / requests))
    printf '  %-52s %-8s %7d requests  %7d instructions/request\n' "$label" "$side" "$requests" "$per_request" >&2
}

measure_understudy() {  # BINARY INDEX: sets $per_request for route INDEX
    local binary=$1 index=$2 port name path faulted tls
    IFS='|' read -r name path faulted tls <<<"${routes[$index]}"
    local options=() url
    [ -n "$faulted" ] && options=("${fault[@]}")
    port=$(free_port)
    if [ -n "$tls" ]; then
        valgrind --tool=callgrind --callgrind-out-file="$work/understudy.out" "$binary" --tls --port "$port" \
            --tls-dir "$tls_dir" --quiet >/dev/null 2>&1 &
        url="https://127.0.0.1:$port"
    else
        valgrind --tool=callgrind --callgrind-out-file="$work/understudy.out" "$binary" --port "$port" --quiet \
            >/dev/null 2>&1 &
        url="http://127.0.0.1:$port"
    fi
    pid=$!
    wait_for "$url/products/1"
    label="Understudy $name"
    count "$work/understudy.out" "$url$path" "${options[@]}"
}

measure_baseline() {  # INDEX MODE (plain or headers): sets $per_request for route INDEX served by evhttp-c
    local index=$1 mode=$2 name path faulted tls
    IFS='|' read -r name path faulted tls <<<"${routes[$index]}"
    local options=()
    [ -n "$faulted" ] && options=("${fault[@]}")
    local status
    status=$(head -1 "$work/after.$index.head" | awk '{print $2}')
    # One route per baseline process, so the 200 and the 503 can each be served at the path Understudy answered.
    printf '%s\t%s\t%s\t%s\n' "$status" "$(cat "$work/after.$index.type")" "$path" "$work/after.$index.body" \
        >"$work/map.txt"
    if [ "$mode" = headers ]; then
        # The headers Understudy sent beyond the ones evhttp writes itself.
        BASELINE_EXTRA_HEADERS=$(tail -n +2 "$work/after.$index.head" | tr -d '\r' \
            | grep -viE '^(content-type|content-length|date|connection):|^$' || true)
        export BASELINE_EXTRA_HEADERS
    else
        unset BASELINE_EXTRA_HEADERS
    fi
    # Over TLS it prints its HTTPS URL on a second line.
    local certificate=() line=1
    [ -n "$tls" ] && certificate=("$tls_dir/localhost.pem" "$tls_dir/localhost-key.pem") && line=2
    valgrind --tool=callgrind --callgrind-out-file="$work/baseline.out" "$BASELINE" "$work/map.txt" \
        "${certificate[@]}" >"$work/baseline.url" 2>/dev/null &
    pid=$!
    for _ in $(seq 1 240); do [ "$(wc -l <"$work/baseline.url")" -ge "$line" ] && break; sleep 0.25; done
    local url
    url=$(sed -n "${line}p" "$work/baseline.url")
    wait_for "$url$path"
    label="evhttp-c $name"
    [ "$mode" = headers ] && label="$label + headers"
    count "$work/baseline.out" "$url$path" "${options[@]}"
    rm -f "$work/baseline.url"
}

fetch_replies "$UNDERSTUDY" "$work/after"
if [ -n "$COMPARE" ]; then
    fetch_replies "$COMPARE" "$work/before"
    for index in "${!routes[@]}"; do
        cmp -s "$work/before.$index.body" "$work/after.$index.body" \
            || echo "instructions: warning: the two binaries' bodies differ for ${routes[$index]%%|*}" >&2
    done
fi

echo "Measuring (callgrind, wrk -t1 -c4 -d${RUN_SECONDS}s per row, $ROUNDS round(s)):" >&2
declare -A results
for round in $(seq 1 "$ROUNDS"); do
    for index in "${!routes[@]}"; do
        # Before and after alternate which goes first from round to round.
        sides=(after)
        if [ -n "$COMPARE" ]; then
            if [ $((round % 2)) = 1 ]; then sides=(before after); else sides=(after before); fi
        fi
        for side in "${sides[@]}"; do
            binary=$measured_after
            [ "$side" = before ] && binary=$measured_before
            measure_understudy "$binary" "$index"
            results[$side.$index]+="${results[$side.$index]:+ }$per_request"
        done
        if [ "$EVHTTP" != 0 ]; then
            modes=(plain)
            [ "$HEADERS" != 0 ] && modes+=(headers)
            for mode in "${modes[@]}"; do
                side=""
                measure_baseline "$index" "$mode"
                results[$mode.$index]+="${results[$mode.$index]:+ }$per_request"
            done
        fi
    done
done

if [ -n "$TSV" ]; then
    : >"$TSV"
    for index in "${!routes[@]}"; do
        for side in before after plain headers; do
            [ -n "${results[$side.$index]:-}" ] || continue
            case $side in
                after) label=understudy ;; plain) label=evhttp-c ;; headers) label=evhttp-c+headers ;; *) label=$side ;;
            esac
            printf '%s\t%s\t%s\n' "${routes[$index]%%|*}" "$label" "${results[$side.$index]}" >>"$TSV"
        done
    done
fi

# The table: each cell lists every round's count.
echo
if [ -n "$COMPARE" ]; then
    echo "before = $COMPARE"
    echo "after  = $UNDERSTUDY"
    printf '%-36s %-20s %-20s %-8s' "instructions/request" "before" "after" "change"
else
    echo "understudy = $UNDERSTUDY"
    printf '%-36s %-20s' "instructions/request" "understudy"
fi
[ "$EVHTTP" != 0 ] && printf ' %-20s %-20s' "evhttp-c" "evhttp-c + headers"
echo
for index in "${!routes[@]}"; do
    printf '%-36s' "${routes[$index]%%|*}"
    if [ -n "$COMPARE" ]; then
        change=$(python3 -c 'import sys, statistics as s
b, a = (s.median(map(int, v.split())) for v in sys.argv[1:])
print(f"{(a - b) / b * 100:+.1f}%")' "${results[before.$index]}" "${results[after.$index]}")
        printf ' %-20s %-20s %-8s' "${results[before.$index]}" "${results[after.$index]}" "$change"
    else
        printf ' %-20s' "${results[after.$index]}"
    fi
    [ "$EVHTTP" != 0 ] && printf ' %-20s %-20s' "${results[plain.$index]}" "${results[headers.$index]:-–}"
    echo
done

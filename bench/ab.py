#!/usr/bin/env python3
"""A/B two understudy binaries, interleaved: CPU µs per request and req/s per round, then the medians.

Usage: bench/ab.py OLD_BINARY NEW_BINARY [--target /products/1 | --script FILE.lua] [--connections 32] [--seconds 3]
                   [--rounds 4] [--https]
Used to say what a change in the request path bought (the commit message quotes it)."""
import argparse, os, shutil, statistics, sys, tempfile, types

parser = argparse.ArgumentParser()
parser.add_argument("old")
parser.add_argument("new")
parser.add_argument("--target", default="/products/1")
parser.add_argument("--connections", type=int, default=32)
parser.add_argument("--seconds", type=int, default=3)
parser.add_argument("--rounds", type=int, default=4)
parser.add_argument("--script", help="a wrk Lua script that makes the requests (then --target is ignored)")
parser.add_argument("--https", action="store_true", help="over TLS: each server adds --tls-port 0 with one local CA")
options = parser.parse_args()
sys.argv = [sys.argv[0]]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the harness's Server and wrk helpers)

tls = ["--tls-port", "0", "--tls-dir", tempfile.mkdtemp(prefix="understudy-ab-")] if options.https else []
servers = {"old": bench.Server("old", [options.old, "--port", "0", "--quiet", *tls]),
           "new": bench.Server("new", [options.new, "--port", "0", "--quiet", *tls])}
if options.https:
    servers = {who: types.SimpleNamespace(url=f"https://127.0.0.1:{bench.https_port(server)}",
                                          cpu_seconds=server.cpu_seconds) for who, server in servers.items()}
results = {"old": [], "new": []}
try:
    for round_index in range(options.rounds):
        order = ["old", "new"] if round_index % 2 == 0 else ["new", "old"]
        for who in order:
            if options.script:
                result = bench.wrk_script(servers[who], options.script, options.connections, options.seconds)
            else:
                result = bench.wrk(servers[who], options.target, options.connections, options.seconds)
            results[who].append(result)
            print(f"round {round_index + 1} {who}: {result['rps']:,.0f} req/s, {result['cpu_us']:.1f} µs/req", flush=True)
finally:
    bench.stop_all()
    if tls:
        shutil.rmtree(tls[-1], ignore_errors=True)
for who in ("old", "new"):
    print(f"{who}: median {statistics.median(r['rps'] for r in results[who]):,.0f} req/s, "
          f"{statistics.median(r['cpu_us'] for r in results[who]):.1f} µs/req")

"""`make bench`'s WebSocket figures (issue 39), against a bare C echo server doing the same framing.

- Echo rate: `/ws/echo` at 32 sockets, one 64-byte text message in flight per socket (bench/ws-load.c checks every
  echo), Understudy against bench/ws-echo-baseline.c (libevent bufferevents: the upgrade, masking, reassembly, UTF-8
  and the closing handshake, nothing else). Interleaved rounds, the order rotated, the median of the per-round ratios;
  the server's CPU per message from /proc/<pid>/stat. Target ≥ 0.9×.
- Relayed echo: the bare server behind `understudy --upstream` against the same server directly, as the echo rate
  is measured. Target: the relay's CPU per message ≤ 2.5× `/ws/echo`'s (it handles each message twice).
- Idle sockets: 10,000 upgraded sockets held at once on a fresh server, warmed by one round of 1,000 first; the RSS
  they add, per socket (target ≤ 16 KiB), then a close (1000) to each and how many are answered.

Used by bench.py (the full run and `--websocket-only`), which hands over its helpers (`common`: log, Server, verdict).
"""
import json
import subprocess
import time

ECHO_CONNECTIONS = 32
MESSAGE_BYTES = 64
IDLE_SOCKETS = 10_000
RATE_BAR = 0.9
# A relay reads and writes each message twice (the client's up, masked; the upstream's down) where an echo does it
# once: its CPU per message is held to 2.5× `/ws/echo`'s on the same machine. Its rate against the bare server is
# printed, not judged: on two cores the relay, the upstream and the load generator share them, and 58 % of the
# relay's own time is the kernel's loopback TCP (perf, 2026-12-05), so that ratio measures the machine's cores.
RELAY_CPU_BAR = 2.5
IDLE_BAR_KIB = 16


def echo_round(load, server, seconds):
    """One ws-load run against `server`: its JSON line, with the server's CPU µs per message."""
    cpu = server.cpu_seconds()
    output = subprocess.run([load, "echo", str(server.port), "/ws/echo", str(ECHO_CONNECTIONS), str(seconds),
                             str(MESSAGE_BYTES)], capture_output=True, text=True, timeout=seconds + 60)
    if output.returncode != 0:
        raise RuntimeError(f"ws-load against {server.name}: {output.stderr.strip()}")
    result = json.loads(output.stdout)
    result["cpu_us"] = (server.cpu_seconds() - cpu) * 1e6 / max(1, result["messages"])
    return result


def compared(common, load, ours, theirs, rounds, seconds):
    """Messages per second on two running servers, interleaved rounds with the order rotated, and the median ratio
    of `ours` to `theirs`."""
    median = common.median
    # A first short run each, so neither pays for its first connections inside a measured round.
    echo_round(load, ours, 1)
    echo_round(load, theirs, 1)
    cells = {"understudy": [], "baseline": []}
    ratios = []
    for index in range(rounds):
        order = [("understudy", ours), ("baseline", theirs)]
        if index % 2:
            order.reverse()
        results = {name: echo_round(load, server, seconds) for name, server in order}
        for name, result in results.items():
            cells[name].append(result)
        ratios.append(results["understudy"]["per_second"] / max(1.0, results["baseline"]["per_second"]))
    summary = {"ratio": median(ratios), "ratios": ratios}
    for name, runs in cells.items():
        summary[name] = {key: median([run[key] for run in runs])
                         for key in ("per_second", "cpu_us", "p50_ms", "p99_ms")}
        summary[name]["errors"] = sum(run["errors"] for run in runs)
    return summary


def echo_rate(common, binary, baseline, load, rounds, seconds):
    """`/ws/echo` against the bare server."""
    ours = common.Server("understudy", [binary, "--port", "0", "--quiet"])
    theirs = common.Server("ws-echo-c", [baseline])
    try:
        return compared(common, load, ours, theirs, rounds, seconds)
    finally:
        ours.stop()
        theirs.stop()


def relay_rate(common, binary, baseline, load, rounds, seconds):
    """The bare server through `--upstream` against the same server directly: what the relay costs. Its CPU per
    message is the relay's alone (the upstream's is the direct column's)."""
    theirs = common.Server("ws-echo-c", [baseline])
    ours = None
    try:
        ours = common.Server("understudy --upstream", [binary, "--port", "0", "--quiet", "--upstream", theirs.url])
        return compared(common, load, ours, theirs, rounds, seconds)
    finally:
        if ours:
            ours.stop()
        theirs.stop()


def hold_idle(load, server, count):
    """Opens `count` idle sockets on `server`: (sockets open, KiB of RSS each, closes answered with 1000)."""
    before = server.rss_mib()
    process = subprocess.Popen([load, "idle", str(server.port), "/ws/echo", str(count)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        if not line.startswith("ready "):
            raise RuntimeError(f"ws-load idle against {server.name}: {line!r} {process.stderr.read()}")
        opened = int(line.split()[1])
        time.sleep(0.5)
        grown = (server.rss_mib() - before) * 1024 / opened
        output, _ = process.communicate("close\n", timeout=90)
        result = json.loads(output)
        return opened, grown, result["closes_answered"]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def idle_memory(common, binary, baseline, load):
    """The RSS an idle socket costs on each server, on a fresh server warmed by 1,000 sockets opened and closed."""
    results = {}
    for name, argv in (("understudy", [binary, "--port", "0", "--quiet"]), ("baseline", [baseline])):
        server = common.Server(name, argv)
        try:
            hold_idle(load, server, 1_000)
            time.sleep(0.5)
            results[name] = hold_idle(load, server, IDLE_SOCKETS)
        finally:
            server.stop()
    return results


def figures(common, binary, baseline, load, quick):
    """The results and the report's rows (figure, target, measured, verdict)."""
    common.log("WebSockets: echo rate")
    rate = echo_rate(common, binary, baseline, load, rounds=1 if quick else 7, seconds=1 if quick else 3)
    common.log(f"  {rate['understudy']['per_second']:,.0f} vs {rate['baseline']['per_second']:,.0f} msg/s "
               f"({rate['ratio']:.2f}×)")
    common.log("WebSockets: relayed echo")
    relay = relay_rate(common, binary, baseline, load, rounds=1 if quick else 7, seconds=1 if quick else 3)
    common.log(f"  {relay['understudy']['per_second']:,.0f} vs {relay['baseline']['per_second']:,.0f} msg/s "
               f"({relay['ratio']:.2f}×)")
    common.log("WebSockets: 10,000 idle sockets")
    idle = idle_memory(common, binary, baseline, load)
    common.log(f"  {idle}")
    ours, theirs = rate["understudy"], rate["baseline"]
    errors = ours["errors"] + theirs["errors"]
    rows = [(f"`/ws/echo` vs ws-echo-c: {MESSAGE_BYTES}-byte messages, c{ECHO_CONNECTIONS}",
             f"≥ {RATE_BAR:.2f}× the bare server's messages/s",
             f"{rate['ratio']:.2f}× ({ours['per_second']:,.0f} vs {theirs['per_second']:,.0f} msg/s; rounds "
             f"{', '.join(f'{ratio:.2f}' for ratio in rate['ratios'])}); CPU {ours['cpu_us']:.1f} vs "
             f"{theirs['cpu_us']:.1f} µs/message; p50 {ours['p50_ms']:.2f} vs {theirs['p50_ms']:.2f} ms, p99 "
             f"{ours['p99_ms']:.2f} vs {theirs['p99_ms']:.2f} ms; {errors} errors",
             common.verdict(rate["ratio"] >= RATE_BAR and errors == 0))]
    relayed, direct = relay["understudy"], relay["baseline"]
    relay_errors = relayed["errors"] + direct["errors"]
    cpu_ratio = relayed["cpu_us"] / max(0.001, ours["cpu_us"])
    rows.append((f"`--upstream` relaying `/ws/echo` to ws-echo-c, c{ECHO_CONNECTIONS}",
                 f"relay CPU ≤ {RELAY_CPU_BAR:.1f}× `/ws/echo`'s per message",
                 f"{cpu_ratio:.2f}× ({relayed['cpu_us']:.1f} vs {ours['cpu_us']:.1f} µs/message); "
                 f"{relay['ratio']:.2f}× ws-echo-c's rate directly ({relayed['per_second']:,.0f} vs "
                 f"{direct['per_second']:,.0f} msg/s; rounds {', '.join(f'{ratio:.2f}' for ratio in relay['ratios'])}); "
                 f"p50 {relayed['p50_ms']:.2f} vs {direct['p50_ms']:.2f} ms, p99 {relayed['p99_ms']:.2f} vs "
                 f"{direct['p99_ms']:.2f} ms; {relay_errors} errors",
                 common.verdict(cpu_ratio <= RELAY_CPU_BAR and relay_errors == 0)))
    (opened, kib, answered), (base_opened, base_kib, _) = idle["understudy"], idle["baseline"]
    rows.append((f"{IDLE_SOCKETS:,} idle sockets held at once (`/ws/echo`)",
                 f"all held, ≤ {IDLE_BAR_KIB} KiB of RSS each, every close answered",
                 f"{opened:,} held, {kib:.1f} KiB each (ws-echo-c {base_kib:.1f} KiB, {base_opened:,} held); "
                 f"{answered:,} closes answered with 1000",
                 common.verdict(opened == IDLE_SOCKETS and kib <= IDLE_BAR_KIB and answered == opened)))
    return {"rate": rate, "relay": relay, "idle": idle}, rows

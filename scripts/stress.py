#!/usr/bin/env python3
"""make stress: a bounded soak of a live `understudy` under mixed traffic and faults, on 127.0.0.1 only.

wrk hammers the catalogue; SSE clients connect and leave; requests with random faults (reset, truncate, hang,
garbage, empty, delay, status) run alongside; an admin loop adds and deletes rules. Afterwards it prints what was
served, errors by kind, crashes, descriptors and RSS against their starting values, and the journal size, and
fails when the server crashed, leaked descriptors or grew its memory by 10 % or more.

Usage: scripts/stress.py [--seconds 60] [--binary .build/release/understudy]
"""
import argparse, asyncio, collections, json, os, random, re, signal, subprocess, sys, time

parser = argparse.ArgumentParser()
parser.add_argument("--seconds", type=float, default=float(os.environ.get("STRESS_SECONDS", 60)))
parser.add_argument("--binary", default=".build/release/understudy")
args = parser.parse_args()
DURATION = max(5.0, args.seconds)
FAULTS = ["reset", "reset=after-headers", "truncate=50%", "truncate-chunked", "hang", "garbage", "empty",
          "delay=50ms..300ms", "status=503; retry-after=1", "status=429", "malformed", "rate=20kB/s"]
errors = collections.Counter()
served = collections.Counter()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


async def request(port, target, headers=None, timeout=2.0):
    """One HTTP/1.1 request on its own connection; returns the status (0 when there was none)."""
    reader = writer = None
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        writer.write(f"GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n".encode())
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), timeout)
        match = re.match(rb"HTTP/1\.1 (\d{3})", data)
        return int(match.group(1)) if match else 0
    finally:
        if writer:
            writer.close()


async def admin(port, method, path, body=None):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    payload = json.dumps(body).encode() if body is not None else b""
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                 f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload)
    await writer.drain()
    data = await reader.read()
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head[9:12]), json.loads(body or b"null")


async def fault_loop(port, deadline, rng):
    while time.time() < deadline:
        fault = rng.choice(FAULTS)
        try:
            status = await request(port, f"/products/{rng.randint(1, 194)}", {"X-Understudy-Fault": fault}, timeout=1.0)
            served["faulted"] += 1
            errors[f"{fault.split('=')[0].split(';')[0]} -> {status or 'no status'}"] += 1
        except (asyncio.TimeoutError, ConnectionError, OSError) as error:
            served["faulted"] += 1
            errors[f"{fault.split('=')[0].split(';')[0]} -> {type(error).__name__}"] += 1


async def stream_loop(port, deadline, rng):
    while time.time() < deadline:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /products/stream?interval=20&heartbeat=50 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            await writer.drain()
            until = time.time() + rng.uniform(0.2, 1.5)
            while time.time() < until:
                line = await asyncio.wait_for(reader.readline(), 1.0)
                if line.startswith(b"id: "):
                    served["events"] += 1
            writer.close()
            served["streams"] += 1
        except (asyncio.TimeoutError, ConnectionError, OSError) as error:
            errors[f"stream -> {type(error).__name__}"] += 1


async def admin_loop(port, deadline, rng):
    while time.time() < deadline:
        status, rule = await admin(port, "POST", "/__understudy/faults",
                                   {"match": {"path": "/products/*"}, "fault": rng.choice(FAULTS[:8]), "times": 1,
                                    "session": "stress"})
        served["admin"] += 1
        if status != 201:
            errors[f"admin add -> {status}"] += 1
        await asyncio.sleep(0.05)
        if rule and "id" in rule:
            await admin(port, "DELETE", f"/__understudy/faults/{rule['id']}")
            served["admin"] += 1


async def main_load(port, deadline):
    rng = random.Random(20261129)
    tasks = [fault_loop(port, deadline, random.Random(rng.random())) for _ in range(8)]
    tasks += [stream_loop(port, deadline, random.Random(rng.random())) for _ in range(20)]
    tasks.append(admin_loop(port, deadline, random.Random(rng.random())))
    await asyncio.gather(*tasks)


def run_wrk(port, seconds):
    script = os.path.join(os.path.dirname(__file__), "stress-paths.lua")
    return subprocess.Popen(["wrk", "-t1", "-c64", f"-d{int(seconds)}s", "-s", script, f"http://127.0.0.1:{port}"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def main():
    server = subprocess.Popen([args.binary, "--port", "0", "--quiet", "--journal-size", "10000"],
                              stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+)\s*$", server.stdout.readline()).group(1))
    time.sleep(0.3)
    start_fds, start_rss = descriptors(server.pid), rss_kib(server.pid)

    warmup = run_wrk(port, 3)
    warmup.wait()
    warm_rss = rss_kib(server.pid)

    deadline = time.time() + DURATION
    wrk = run_wrk(port, DURATION)
    asyncio.run(main_load(port, deadline))
    wrk_output = wrk.communicate()[0]
    time.sleep(2.0)  # let hung requests be noticed and closed connections drain

    alive = server.poll() is None
    end_fds = descriptors(server.pid) if alive else -1
    end_rss = rss_kib(server.pid) if alive else -1
    health = asyncio.run(admin(port, "GET", "/__understudy/health"))[1] if alive else {}
    requests = re.search(r"(\d+) requests in", wrk_output)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", wrk_output)
    socket_errors = re.search(r"Socket errors: (.*)", wrk_output)
    server.send_signal(signal.SIGTERM)
    exit_code = server.wait(timeout=15)

    growth = (end_rss - warm_rss) / warm_rss * 100 if alive else float("inf")
    print(f"\n== make stress: {DURATION:.0f} s of mixed traffic on 127.0.0.1 ==")
    print(f"wrk catalogue requests     {requests.group(1) if requests else '?'}"
          f" (non-2xx: {non_2xx.group(1) if non_2xx else 0}; socket errors: {socket_errors.group(1) if socket_errors else 'none'})")
    print(f"faulted requests           {served['faulted']}")
    print(f"SSE streams / events       {served['streams']} / {served['events']}")
    print(f"admin calls                {served['admin']}")
    print("errors by kind (what the clients saw):")
    for kind, count in sorted(errors.items()):
        print(f"  {kind:<36} {count}")
    print(f"crashes                    {0 if alive else 1} (exit status after SIGTERM: {exit_code})")
    print(f"open descriptors           {start_fds} at start -> {end_fds} after")
    print(f"RSS                        {start_rss} KiB idle, {warm_rss} KiB warm -> {end_rss} KiB after ({growth:+.1f} %)")
    print(f"journal                    {health.get('requests', '?')} entries (bounded at 10000)")
    failed = (not alive) or exit_code != 0 or end_fds > start_fds + 2 or growth >= 10
    print("verdict                    " + ("FAIL" if failed else "PASS"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""make stress: a bounded soak of a live `understudy` under mixed traffic and faults, on 127.0.0.1 only.

wrk hammers the catalogue; SSE clients connect and leave; requests with random faults (reset, truncate, hang,
garbage, empty, delay, status) run alongside; an admin loop adds and deletes rules. Afterwards it prints what was
served, errors by kind, crashes, descriptors and RSS against their starting values, and the journal size against
its bound. It fails when the server crashed or did not stop cleanly, when wrk saw socket errors or non-2xx replies
on the catalogue, when an admin call failed, when the journal outgrew its bound, when descriptors did not come back
to their idle count, or when RSS grew by 10 % or more over the warm figure (growth over idle is printed too).

The server and wrk never outlive the script: each is reaped in a `finally` (exceptions, Ctrl-C, SIGTERM, a
crashed server), runs in its own process group so Ctrl-C reaches only this script, and on Linux gets SIGKILL
should the script itself be killed. Every HTTP call has a timeout and every loop a count and a time bound.

Usage: scripts/stress.py [--seconds 60] [--binary .build/release/understudy] [--journal-size 10000]
"""
import argparse, asyncio, collections, json, os, random, re, shutil, signal, subprocess, sys, threading
import time, traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser(description="A bounded soak of a live understudy (make stress).")
parser.add_argument("--seconds", type=float, default=float(os.environ.get("STRESS_SECONDS", 60)),
                    help="length of the mixed-traffic phase (at least 5; default $STRESS_SECONDS or 60)")
parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/understudy"),
                    help="the understudy executable (default .build/release/understudy)")
parser.add_argument("--journal-size", type=int, default=10000, help="the server's journal bound (default 10000)")
args = parser.parse_args()

DURATION = max(5.0, args.seconds)
WARMUP_SECONDS = 3
START_TIMEOUT = 15.0     # for the server to print its URL
SETTLE_TIMEOUT = 10.0    # for descriptors to come back to their idle count after the load
STOP_TIMEOUT = 15.0      # for the server to exit after SIGTERM (its default --grace is 5 s)
ADMIN_TIMEOUT = 3.0
FAULT_TIMEOUT = 1.0      # also how long a `hang` is held before the client gives up
STREAM_READ_TIMEOUT = 1.0
# Count bounds, so that no loop can spin however fast its calls fail: far above what a healthy run reaches.
MAX_FAULTED_PER_LOOP = int(DURATION * 500)
MAX_STREAMS_PER_LOOP = int(DURATION * 50)
MAX_LINES_PER_STREAM = 5000
MAX_ADMIN_ROUNDS = int(DURATION * 40)
RSS_GROWTH_LIMIT = 10.0  # percent over the warm figure
FAULTS = ["reset", "reset=after-headers", "truncate=50%", "truncate-chunked", "hang", "garbage", "empty",
          "delay=50ms..300ms", "status=503; retry-after=1", "status=429", "malformed", "rate=20kB/s"]
NETWORK_ERRORS = (asyncio.TimeoutError, ConnectionError, OSError, ValueError)

errors = collections.Counter()   # what the clients saw, by kind
served = collections.Counter()
admin_failures = collections.Counter()
capped = collections.Counter()   # loops that stopped on their count bound rather than the clock


class Terminated(BaseException):
    """SIGTERM or SIGHUP to this script: unwinds like Ctrl-C, so every `finally` runs."""


def on_terminate(signum, _frame):
    raise Terminated(signal.Signals(signum).name)


# --- child processes: scripts/soak_support.py -----------------------------------------------------------------

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soak_support import descriptors, drain, read_url, reap, rss_kib, spawn  # noqa: E402


# --- HTTP ------------------------------------------------------------------------------------------------------

async def exchange(port, raw, timeout):
    """Sends `raw` on a new connection and reads to EOF, all within `timeout`; returns (status, body)."""
    async def go():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(raw)
            await writer.drain()
            return await reader.read()
        finally:
            writer.close()
    data = await asyncio.wait_for(go(), timeout)
    head, _, body = data.partition(b"\r\n\r\n")
    match = re.match(rb"HTTP/1\.[01] (\d{3})", head)
    return (int(match.group(1)) if match else 0), body


async def request(port, target, headers, timeout):
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    raw = f"GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n".encode()
    return (await exchange(port, raw, timeout))[0]


async def admin(port, method, path, body=None, expect=(200,)):
    """One admin call; returns its JSON, or None after counting the failure (an error or an unexpected status)."""
    served["admin"] += 1
    payload = json.dumps(body).encode() if body is not None else b""
    raw = (f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
           f"Content-Length: {len(payload)}\r\n\r\n").encode() + payload
    route = re.sub(r"/rule-[^/]+$", "/{id}", path)
    try:
        status, reply = await exchange(port, raw, ADMIN_TIMEOUT)
    except NETWORK_ERRORS as error:
        outcome = type(error).__name__
    else:
        if status in expect:
            try:
                return json.loads(reply or b"null")
            except ValueError:
                outcome = f"{status} with a body that is not JSON"
        else:
            outcome = str(status or "no status")
    kind = f"admin {method} {route} -> {outcome}"
    admin_failures[kind] += 1
    errors[kind] += 1
    return None


# --- the load --------------------------------------------------------------------------------------------------

def running(deadline, stop):
    return time.monotonic() < deadline and not stop.is_set()


async def fault_loop(port, deadline, stop, rng):
    for _ in range(MAX_FAULTED_PER_LOOP):
        if not running(deadline, stop):
            return
        fault = rng.choice(FAULTS)
        name = fault.split("=")[0].split(";")[0]
        served["faulted"] += 1
        try:
            status = await request(port, f"/products/{rng.randint(1, 194)}", {"X-Understudy-Fault": fault},
                                   FAULT_TIMEOUT)
            errors[f"fault {name} -> {status or 'no status'}"] += 1
        except NETWORK_ERRORS as error:
            errors[f"fault {name} -> {type(error).__name__}"] += 1
    capped["fault loop"] += 1


async def one_stream(port, seconds):
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), STREAM_READ_TIMEOUT)
    try:
        writer.write(b"GET /products/stream?interval=20&heartbeat=50 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        await asyncio.wait_for(writer.drain(), STREAM_READ_TIMEOUT)
        status_line = await asyncio.wait_for(reader.readline(), STREAM_READ_TIMEOUT)
        match = re.match(rb"HTTP/1\.[01] (\d{3})", status_line)
        if not match or match.group(1) != b"200":
            return f"status {match.group(1).decode() if match else 'none'}"
        until = time.monotonic() + seconds
        for _ in range(MAX_LINES_PER_STREAM):
            if time.monotonic() >= until:
                return None
            line = await asyncio.wait_for(reader.readline(), STREAM_READ_TIMEOUT)
            if not line:
                return "closed early"
            if line.startswith(b"id: "):
                served["events"] += 1
        return None
    finally:
        writer.close()


async def stream_loop(port, deadline, stop, rng):
    for _ in range(MAX_STREAMS_PER_LOOP):
        if not running(deadline, stop):
            return
        try:
            problem = await one_stream(port, min(rng.uniform(0.2, 1.5), max(0.0, deadline - time.monotonic())))
        except NETWORK_ERRORS as error:
            problem = type(error).__name__
        served["streams"] += 1
        if problem:
            errors[f"stream -> {problem}"] += 1
    capped["stream loop"] += 1


async def admin_loop(port, deadline, stop, rng):
    # The rules belong to session "stress", which no other client names: this exercises the rule store under
    # load without changing what wrk and the fault loops see.
    for _ in range(MAX_ADMIN_ROUNDS):
        if not running(deadline, stop):
            return
        rule = await admin(port, "POST", "/__understudy/faults",
                           {"match": {"path": "/products/*"}, "fault": rng.choice(FAULTS[:8]), "times": 1,
                            "session": "stress"}, expect=(201,))
        await asyncio.sleep(0.05)
        if isinstance(rule, dict) and "id" in rule:
            await admin(port, "DELETE", f"/__understudy/faults/{rule['id']}", expect=(200, 204))
        elif rule is not None:
            admin_failures["admin POST /__understudy/faults -> reply without an id"] += 1
    capped["admin loop"] += 1


async def watchdog(server, wrk, deadline, stop):
    """Ends the load early when the server dies, stopping wrk (SIGINT makes it print what it has)."""
    while time.monotonic() < deadline and not stop.is_set():
        if server.poll() is not None:
            stop.set()
            if wrk.poll() is None:
                wrk.send_signal(signal.SIGINT)
            return
        await asyncio.sleep(0.1)


async def main_load(port, server, wrk, deadline):
    rng = random.Random(20261129)
    stop = asyncio.Event()
    loops = [fault_loop(port, deadline, stop, random.Random(rng.random())) for _ in range(8)]
    loops += [stream_loop(port, deadline, stop, random.Random(rng.random())) for _ in range(20)]
    loops.append(admin_loop(port, deadline, stop, random.Random(rng.random())))
    loops.append(watchdog(server, wrk, deadline, stop))
    # Every call inside has its own timeout, so this outer bound only catches a bug in the loops themselves.
    slack = max(FAULT_TIMEOUT, ADMIN_TIMEOUT, STREAM_READ_TIMEOUT) * 3
    tasks = [asyncio.ensure_future(loop) for loop in loops]
    try:
        _, pending = await asyncio.wait(tasks, timeout=deadline - time.monotonic() + slack)
        if pending:
            errors["load loops overran their deadline"] += 1
    finally:  # also on Ctrl-C, which cancels this coroutine: no task is left running or unretrieved
        for task in tasks:
            task.cancel()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, Exception):
            raise outcome


def run_wrk(port, seconds):
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stress-paths.lua")
    return spawn(["wrk", "-t1", "-c64", f"-d{int(seconds)}s", "-s", script, f"http://127.0.0.1:{port}"],
                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wrk_figures(process, seconds):
    """Waits for wrk (bounded) and parses its report into {requests, non_2xx, socket_errors, status}."""
    try:
        output = process.communicate(timeout=seconds + 15)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        output = process.communicate()[0]
    requests = re.search(r"(\d+) requests in", output)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    socket_errors = {kind: int(n) for kind, n in zip(("connect", "read", "write", "timeout"), sockets.groups())
                     if int(n)} if sockets else {}
    return {"requests": int(requests.group(1)) if requests else None,
            "non_2xx": int(non_2xx.group(1)) if non_2xx else 0, "socket_errors": socket_errors,
            "status": process.returncode, "output": output}


# --- the run ---------------------------------------------------------------------------------------------------

def shown_path(path):
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def mib(kib):
    return "?" if kib is None else f"{kib / 1024:.1f} MiB"


def growth(end, base):
    return None if end is None or not base else (end - base) / base * 100


def percent(value):
    return "?" if value is None else f"{value:+.1f} %"


def soak(figures):
    """Starts the server, warms it, runs the load and takes the end figures into `figures`. Processes it starts
    are left in `figures` for the caller's `finally` to reap."""
    server = figures["server"] = spawn([args.binary, "--port", "0", "--quiet", "--journal-size",
                                        str(args.journal_size)], stdout=subprocess.PIPE)
    url = read_url(server, START_TIMEOUT)
    match = re.search(r"http://127\.0\.0\.1:(\d+)", url or "")
    if not match:
        seen = f"its first line: {url!r}" if url else "it exited or printed nothing"
        figures["problems"].append(f"the server printed no URL within {START_TIMEOUT:.0f} s ({seen})")
        try:
            server.wait(timeout=1)  # its stdout closing means it is on its way out: count that as a crash
        except subprocess.TimeoutExpired:
            pass
        return
    figures["started"] = True
    threading.Thread(target=drain, args=(server.stdout,), daemon=True).start()
    port = int(match.group(1))
    time.sleep(0.3)
    figures["start_fds"], figures["idle_rss"] = descriptors(server.pid), rss_kib(server.pid)

    figures["wrk"] = run_wrk(port, WARMUP_SECONDS)
    figures["warmup"] = wrk_figures(figures["wrk"], WARMUP_SECONDS)
    figures["warm_rss"] = rss_kib(server.pid)
    if server.poll() is not None:
        return

    deadline = time.monotonic() + DURATION
    figures["wrk"] = run_wrk(port, DURATION)
    asyncio.run(main_load(port, server, figures["wrk"], deadline))
    figures["main"] = wrk_figures(figures["wrk"], DURATION)

    # Let hung requests be noticed and closed connections drain, then take the end figures.
    settle_until = time.monotonic() + SETTLE_TIMEOUT
    while server.poll() is None:
        figures["end_fds"] = descriptors(server.pid)
        if figures["end_fds"] is None or figures["start_fds"] is None or figures["end_fds"] <= figures["start_fds"] \
                or time.monotonic() >= settle_until:
            break
        time.sleep(0.25)
    figures["end_rss"] = rss_kib(server.pid) if server.poll() is None else None
    if server.poll() is None:
        figures["health"] = asyncio.run(admin(port, "GET", "/__understudy/health")) or {}


def report(figures):
    server = figures["server"]
    crashed = server is None or figures["crashed"]
    main_wrk, warmup = figures["main"] or {}, figures["warmup"] or {}
    journal = figures["health"].get("requests") if isinstance(figures["health"], dict) else None
    warm_growth = growth(figures["end_rss"], figures["warm_rss"])
    idle_growth = growth(figures["end_rss"], figures["idle_rss"])
    problems = list(figures["problems"])

    print(f"\n== make stress: {DURATION:.0f} s of mixed traffic on 127.0.0.1 ({shown_path(args.binary)}) ==")
    print("requests served:")
    print(f"  wrk catalogue              {main_wrk.get('requests', '?')} (warm-up: {warmup.get('requests', '?')})")
    print(f"  faulted                    {served['faulted']}")
    print(f"  SSE streams / events       {served['streams']} / {served['events']}")
    print(f"  admin calls                {served['admin']} ({sum(admin_failures.values())} failed)")
    print("errors by kind (what the clients saw; the fault outcomes are expected):")
    for name, run in (("wrk", main_wrk), ("wrk warm-up", warmup)):
        if run:
            sockets = ", ".join(f"{kind} {n}" for kind, n in run["socket_errors"].items()) or "none"
            print(f"  {name + ' non-2xx / socket':<36} {run['non_2xx']} / {sockets}")
    for kind, count in sorted(errors.items()):
        print(f"  {kind:<36} {count}")
    stopped = "stopped by SIGKILL after SIGTERM timed out" if not figures["stopped_in_time"] else \
        f"exit status {figures['exit_status']}" + ("" if crashed else " after SIGTERM")
    print(f"crashes:                     {1 if crashed else 0} ({stopped})")
    print(f"open descriptors:            {figures['start_fds'] if figures['start_fds'] is not None else '?'} at start"
          f" -> {figures['end_fds'] if figures['end_fds'] is not None else '?'} at end")
    print(f"RSS:                         {mib(figures['idle_rss'])} idle, {mib(figures['warm_rss'])} warm -> "
          f"{mib(figures['end_rss'])} at end ({percent(warm_growth)} over warm, {percent(idle_growth)} over idle)")
    print(f"journal:                     {journal if journal is not None else '?'} entries "
          f"(bound {args.journal_size})")

    if figures["interrupted"]:
        problems.append(f"interrupted ({figures['interrupted']})")
    if crashed:
        problems.append("the server crashed")
    elif figures["exit_status"] != 0 or not figures["stopped_in_time"]:
        problems.append(f"the server did not stop cleanly on SIGTERM ({stopped})")
    for name, run in (("wrk", main_wrk), ("wrk warm-up", warmup)):
        if not run:
            continue
        if run["requests"] is None or run["status"] != 0:
            last = (run["output"].strip().splitlines() or ["no output"])[-1].strip()
            problems.append(f"{name} did not finish normally (exit {run['status']}: {last})")
        if run["socket_errors"]:
            problems.append(f"{name} socket errors")
        if run["non_2xx"]:
            problems.append(f"{name} non-2xx replies on the catalogue")
    if admin_failures:
        problems.append("failed admin calls")
    # A run that never started, or was interrupted, has no end figures to judge.
    measured = figures["started"] and not crashed and not figures["interrupted"]
    if measured and journal is None:
        problems.append("no journal size from /__understudy/health")
    elif journal is not None and journal > args.journal_size:
        problems.append(f"journal over its bound ({journal} > {args.journal_size})")
    if measured:
        if figures["start_fds"] is None or figures["end_fds"] is None:
            problems.append("descriptors could not be counted")
        elif figures["end_fds"] > figures["start_fds"]:
            problems.append(f"descriptors not back to baseline ({figures['start_fds']} -> {figures['end_fds']})")
        if warm_growth is None:
            problems.append("RSS could not be measured")
        elif warm_growth >= RSS_GROWTH_LIMIT:
            problems.append(f"RSS grew {warm_growth:.1f} % over warm (limit {RSS_GROWTH_LIMIT:.0f} %)")
    if errors["load loops overran their deadline"]:
        problems.append("the load loops overran their deadline")
    if capped:
        print(f"note: loops stopped on their count bound: {dict(capped)}")
    print("verdict:                     " + ("FAIL: " + "; ".join(problems) if problems else "PASS"))
    if figures["interrupted"]:
        return 130
    return 1 if problems else 0


def main():
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        sys.exit(f"stress: no executable at {args.binary}; build it (make release) or pass --binary PATH")
    if shutil.which("wrk") is None:
        sys.exit("stress: wrk is not installed (scripts/install-deps.sh wrk)")
    signal.signal(signal.SIGTERM, on_terminate)
    signal.signal(signal.SIGHUP, on_terminate)

    figures = {"server": None, "wrk": None, "warmup": None, "main": None, "health": {}, "problems": [],
               "start_fds": None, "end_fds": None, "idle_rss": None, "warm_rss": None, "end_rss": None,
               "started": False, "crashed": False, "exit_status": None, "stopped_in_time": True, "interrupted": None}
    try:
        try:
            soak(figures)
        except (KeyboardInterrupt, Terminated) as interruption:
            figures["interrupted"] = str(interruption) or "Ctrl-C"
        except Exception as error:  # a bug here must still leave the figures and no processes behind
            traceback.print_exc()
            figures["problems"].append(f"stress.py failed: {type(error).__name__}: {error}")
    finally:
        # Reaping comes before anything else, and is not itself interrupted (it is bounded by its timeouts).
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        reap(figures["wrk"], signal.SIGKILL, timeout=5)
        server = figures["server"]
        if server is not None:
            figures["crashed"] = server.poll() is not None
            figures["exit_status"], figures["stopped_in_time"] = reap(server)
    sys.exit(report(figures))


if __name__ == "__main__":
    main()

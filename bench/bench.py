#!/usr/bin/env python3
"""make bench: Understudy's performance figures against their bars (shared/reference/performance.md).

Everything runs on 127.0.0.1. Understudy (release build) and a bare evhttp server in C that serves the same bytes
(bench/evhttp-baseline.c) run side by side; wrk (-t1, keep-alive) drives each cell; rounds interleave A/B with the
order rotated; the median is reported. Server CPU per request comes from /proc/<pid>/stat (utime + stime), which
is steadier than req/s on a shared machine. Then: the Python peers, 500 delayed requests, 1,000 SSE streams,
start-up, RSS, catalogues of 194, 10k and 100k products, the control room, and Understudy in front of an API:
forwarding (`--upstream`, against the upstream directly), replaying (`--replay`, against the bare server) and
recording 10,000 exchanges (`--record`, peak RSS).

Usage: bench/bench.py [--quick] [--out BENCHMARKS.md] [--control-room-only | --api-only]
  --quick   ~1-minute smoke run (1 round of 1 s cells, smaller catalogues); writes .build/bench/BENCHMARKS-quick.md
  --api-only  the proxy, replay and recording rows alone (~4 minutes, ~40 s with --quick), printed as Markdown
Every process it starts is stopped by PID when it ends (or fails); every loop is bounded.
"""
import argparse, datetime, json, os, platform, re, shutil, signal, socket, ssl, statistics, subprocess, sys, tempfile, threading, time, types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, ".build", "bench")
UNDERSTUDY = os.path.join(ROOT, ".build", "release", "understudy")
SWIFT_BENCH = os.path.join(ROOT, ".build", "release", "UnderstudyBench")
BASELINE = os.path.join(BUILD, "evhttp-baseline")
FANOUT = os.path.join(BUILD, "sse-fanout")
WS_BASELINE = os.path.join(BUILD, "ws-echo-baseline")
WS_LOAD = os.path.join(BUILD, "ws-load")
VENV = os.path.join(ROOT, ".venv-bench")
TICKS = os.sysconf("SC_CLK_TCK")

parser = argparse.ArgumentParser()
parser.add_argument("--quick", action="store_true", default=os.environ.get("QUICK", "") not in ("", "0"))
parser.add_argument("--out", default=None)
parser.add_argument("--control-room-only", action="store_true",
                    help="only the control room's figures (feed cost and ten viewers), printed, no report written")
parser.add_argument("--tls-only", action="store_true",
                    help="only the HTTPS figures (keep-alive ratio, handshakes/s, idle memory), printed, no report written")
parser.add_argument("--server-bin", default=None, help="the understudy binary (default .build/release/understudy)")
parser.add_argument("--fixed-only", action="store_true",
                    help="only the fixed routes' A/B against the bare server (~27 minutes, the A/A cell included), "
                         "printed as Markdown, no report written")
parser.add_argument("--spec-only", action="store_true",
                    help="only the OpenAPI document figures (bench/spec.py): loading, serving, cost; rows printed")
parser.add_argument("--websocket-only", action="store_true",
                    help="only the WebSocket figures (bench/websocket_bench.py): echo rate and idle sockets; rows printed")
parser.add_argument("--api-only", action="store_true",
                    help="only the proxy, replay and recording figures (issue 22): verdict rows and table, printed")
args = parser.parse_args()
UNDERSTUDY = args.server_bin or UNDERSTUDY
QUICK = args.quick
CELL_SECONDS = 1 if QUICK else 5
ROUNDS = 1 if QUICK else 3
# The fixed routes' A/B against the bare server: on two shared cores one cell's ratio moves from one wrk run to the
# next by as much as 0.75-1.25 (wrk shares the cores). The bare server against itself (A/A) gave a per-round ratio
# spread (standard deviation) of 0.10 with 1 s cells and the same with 3 s ones: the noise is a state each run
# starts in, and does not average out within a run. So many short rounds, not a few long ones: the median of 25
# one-second rounds spreads about half as much as that of 5 five-second rounds, in the same time.
AB_ROUNDS = 1 if QUICK else 25
AB_CELL_SECONDS = 1
# The A/A cell: the bare server against a second copy of itself on GET /products/1 (c32), in every round, so the
# report shows how far a ratio moves when nothing differs.
CALIBRATION = ("A/A: evhttp-c against a second evhttp-c (GET /products/1)", 32)
# The HTTPS ratio is two wrk runs per round, both paying for TLS on the shared cores: more rounds for a steadier median.
TLS_ROUNDS = 1 if QUICK else 5
CONNECTIONS = [32, 256]
PEER_SECONDS = 1 if QUICK else 3
SSE_STREAMS = 1000
SSE_SECONDS = 3 if QUICK else 10
CATALOGUE_SIZES = [194, 10_000] if QUICK else [194, 10_000, 100_000]
OUT = args.out or (os.path.join(BUILD, "BENCHMARKS-quick.md") if QUICK else os.path.join(ROOT, "BENCHMARKS.md"))

running = []  # every process started, stopped in `stop_all`


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------------------------------- processes

class Server:
    """A server process whose first stdout line holds its URL (or whose port is known in advance)."""

    def __init__(self, name, argv, port=None, cwd=None, ready_timeout=10.0):
        self.name = name
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd,
                                        start_new_session=True)
        running.append(self.process)
        self.pid = self.process.pid
        deadline = time.time() + ready_timeout
        if port is None:
            line = read_line(self.process.stdout, deadline)
            match = re.search(r"http://[0-9.]+:(\d+)", line or "")
            if not match:
                self.stop()
                raise RuntimeError(f"{name}: no URL on its first line ({line!r})")
            self.port = int(match.group(1))
        else:
            self.port = port
            while not http_status(port, "/__ready", timeout=0.5):
                if time.time() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"{name}: not answering on port {port}")
                time.sleep(0.1)
        self.url = f"http://127.0.0.1:{self.port}"

    def cpu_seconds(self):
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def rss_mib(self):
        with open(f"/proc/{self.pid}/status") as status:
            return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1)) / 1024

    def stop(self):
        stop_process(self.process)


def read_line(stream, deadline):
    import select
    data = b""
    while time.time() < deadline:
        ready, _, _ = select.select([stream], [], [], max(0.0, deadline - time.time()))
        if not ready:
            break
        byte = os.read(stream.fileno(), 1)
        if not byte:
            break
        if byte == b"\n":
            return data.decode(errors="replace")
        data += byte
    return data.decode(errors="replace") or None


def stop_process(process):
    if process.poll() is None:
        try:
            os.kill(process.pid, signal.SIGTERM)
            process.wait(timeout=8)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
        except ProcessLookupError:
            pass
    if process in running:
        running.remove(process)


def stop_all():
    for process in list(running):
        stop_process(process)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def http_get(port, target, headers=None, timeout=5.0):
    """(status, headers text, body) of one GET on its own connection."""
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{extra}\r\n".encode())
        data = b""
        while True:
            chunk = connection.recv(1 << 16)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head[9:12]), head.decode(errors="replace"), body


def http_status(port, target, timeout=1.0):
    try:
        return http_get(port, target, timeout=timeout)[0]
    except OSError:
        return 0


# ---------------------------------------------------------------------------------------------------------- wrk

def parse_duration_ms(text):
    number, unit = re.match(r"([0-9.]+)(us|ms|s|m)", text).groups()
    return float(number) * {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4}[unit]


def wrk(server, target, connections, seconds, headers=None, timeout_s=2, sample_rss=False):
    """One wrk run against `server`; adds the server's CPU µs per request (and its peak RSS when asked)."""
    argv = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", f"--timeout={timeout_s}s",
            "-H", "Connection: keep-alive"]
    for name, value in (headers or {}).items():
        argv += ["-H", f"{name}: {value}"]
    argv.append(server.url + target)
    cpu_before = server.cpu_seconds()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    running.append(process)
    peak_rss = 0.0
    if sample_rss:
        while process.poll() is None:
            peak_rss = max(peak_rss, server.rss_mib())
            time.sleep(0.1)
    output, _ = process.communicate(timeout=seconds + 60)
    running.remove(process)
    cpu = server.cpu_seconds() - cpu_before
    result = {"output": output}
    match = re.search(r"(\d+) requests in", output)
    requests = int(match.group(1)) if match else 0
    rps = re.search(r"Requests/sec:\s+([0-9.]+)", output)
    result["requests"] = requests
    result["rps"] = float(rps.group(1)) if rps else 0.0
    for percent in ("50", "99"):
        match = re.search(rf"^\s+{percent}%\s+(\S+)", output, re.M)
        result[f"p{percent}"] = parse_duration_ms(match.group(1)) if match else float("nan")
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    result["socket_errors"] = sum(map(int, errors.groups())) if errors else 0
    result["timeouts"] = int(errors.group(4)) if errors else 0
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    result["non2xx"] = int(non2xx.group(1)) if non2xx else 0
    result["cpu_us"] = cpu * 1e6 / requests if requests else float("nan")
    result["peak_rss"] = peak_rss
    return result


# ------------------------------------------------------------------------------------------------------ helpers

def median(values):
    values = [value for value in values if value == value]
    return statistics.median(values) if values else float("nan")


def spread(values):
    """"0.97–1.03": the middle half of `values` (first to third quartile), how far one cell's rounds moved."""
    values = sorted(value for value in values if value is not None and value == value)
    if len(values) < 2:
        return "one round" if values else "–"
    low, _, high = statistics.quantiles(values, n=4)
    return f"{low:.2f}–{high:.2f}"


def fmt(value, digits=0):
    if value != value:
        return "–"
    return f"{value:,.{digits}f}"


def machine():
    model = "?"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"nproc": os.cpu_count(), "cpu": model, "kernel": platform.release(),
            "load": open("/proc/loadavg").read().split()[:3]}


def tool_version(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=10).stdout.splitlines()[0].strip()
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "?"


# ------------------------------------------------------------------------------------------------- the scenarios

FAULT = {"X-Understudy-Fault": "status=503"}
# Every fixed route is served from a reply built once (a canned reply), and must reach 0.95× the bare server
# serving the same bytes (issue 26).
FIXED_ROUTE_BAR = 0.95
SCENARIOS = [
    # name, target, headers, req/s bar vs baseline, CPU bar vs baseline
    ("GET /products/1", "/products/1", None, FIXED_ROUTE_BAR, 1.15),
    ("GET /products (default page)", "/products", None, FIXED_ROUTE_BAR, 1.15),
    ("search q=phone", "/products/search?q=phone", None, FIXED_ROUTE_BAR, None),
    ("sort sortBy=price&order=desc", "/products?sortBy=price&order=desc", None, FIXED_ROUTE_BAR, None),
    ("select=title,price", "/products?select=title,price", None, FIXED_ROUTE_BAR, None),
    ("category/smartphones", "/products/category/smartphones", None, FIXED_ROUTE_BAR, None),
    ("status fault 503 (header)", "/products/1", FAULT, FIXED_ROUTE_BAR, None),
]
# DummyJSON's other resources, list and one item each, at 32 connections only (14 cells more at two connection
# counts would add ten minutes): each must hold the same bar as products against the bare server.
RESOURCES = ["users", "posts", "comments", "todos", "carts", "quotes", "recipes"]
RESOURCE_SCENARIOS = [(f"GET /{name}{suffix}", f"/{name}{suffix}", None, FIXED_ROUTE_BAR, None)
                      for name in RESOURCES for suffix in ("", "/1")]
# Instructions per request (bench/instructions.sh, callgrind) are counted on the release build linked against the
# Swift runtime's shared libraries when there is one (`make bench` builds it), else on the static one.
DYNAMIC_UNDERSTUDY = os.path.join(ROOT, ".build", "release-dynamic", "release", "understudy")
ALL_SCENARIOS = SCENARIOS + RESOURCE_SCENARIOS


def connections_for(name):
    return CONNECTIONS if any(name == scenario[0] for scenario in SCENARIOS) else [32]


def fetch_bodies(understudy, directory):
    """Writes the map file the baseline and the Python peers serve: Understudy's own status, type and body."""
    lines = []
    for index, (name, target, headers, _, _) in enumerate(ALL_SCENARIOS):
        status, head, body = http_get(understudy.port, target, headers)
        content_type = re.search(r"(?im)^content-type:\s*(.+?)\s*$", head).group(1)
        path = os.path.join(directory, f"body-{index}.bin")
        with open(path, "wb") as out:
            out.write(body)
        # The fault row is served by the baseline under its own key: it has no fault header to tell them apart.
        uri = "/fault/products/1" if headers else target
        lines.append(f"{status}\t{content_type}\t{uri}\t{path}")
        log(f"  {name}: {status}, {len(body):,} B")
    map_path = os.path.join(directory, "routes.tsv")
    with open(map_path, "w") as out:
        out.write("\n".join(lines) + "\n")
    return map_path


def baseline_target(target, headers):
    return "/fault/products/1" if headers else target


def ab_rounds(understudy, baseline, second_baseline):
    """Every scenario × connections × server, AB_ROUNDS times, order rotated, and the A/A cell (`CALIBRATION`: the
    second baseline in Understudy's place); returns per-cell lists."""
    cells = {}
    for round_index in range(AB_ROUNDS):
        log(f"round {round_index + 1}/{AB_ROUNDS}")
        order = ["understudy", "baseline"] if round_index % 2 else ["baseline", "understudy"]
        pair = {who: wrk(second_baseline if who == "understudy" else baseline, "/products/1", CALIBRATION[1],
                         AB_CELL_SECONDS) for who in order}
        cells.setdefault(CALIBRATION, []).append(pair)
        for scenario_index, (name, target, headers, _, _) in enumerate(ALL_SCENARIOS):
            for connections in connections_for(name):
                order = ["understudy", "baseline"]
                if (round_index + scenario_index + connections) % 2:
                    order.reverse()
                pair = {}
                for who in order:
                    if who == "understudy":
                        pair[who] = wrk(understudy, target, connections, AB_CELL_SECONDS, headers)
                    else:
                        pair[who] = wrk(baseline, baseline_target(target, headers), connections, AB_CELL_SECONDS,
                                        headers)
                cells.setdefault((name, connections), []).append(pair)
                u, b = pair["understudy"], pair["baseline"]
                log(f"  {name} c{connections}: understudy {u['rps']:,.0f} req/s {u['cpu_us']:.1f} µs "
                    f"· baseline {b['rps']:,.0f} req/s {b['cpu_us']:.1f} µs")
    return cells


def instruction_counts(directory):
    """Instructions per request on the event loop for every fixed route, Understudy's and the bare server's
    (bench/instructions.sh under callgrind, one round): {(name, side): count}, side "understudy" or "evhttp-c";
    empty when valgrind is missing (the column then shows –)."""
    if not shutil.which("valgrind"):
        log("  valgrind is missing: no instruction counts (scripts/install-deps.sh valgrind)")
        return {}
    routes = os.path.join(directory, "instruction-routes.txt")
    with open(routes, "w") as out:
        for name, target, headers, _, _ in ALL_SCENARIOS:
            out.write(f"{name}|{target}|{'fault' if headers else ''}|\n")  # name|path|fault|tls
    tsv = os.path.join(directory, "instructions.tsv")
    # A dynamic build older than the static one is not this tree's: the static one is counted then (within ~1 %).
    fresh = os.path.exists(DYNAMIC_UNDERSTUDY) and os.path.getmtime(DYNAMIC_UNDERSTUDY) >= os.path.getmtime(UNDERSTUDY)
    binary = DYNAMIC_UNDERSTUDY if fresh else UNDERSTUDY
    environment = dict(os.environ, UNDERSTUDY=binary, ROUTES_FILE=routes, TSV=tsv, HEADERS="0", ROUNDS="1",
                       RUN_SECONDS="1" if QUICK else "3", COMPARE="")
    result = subprocess.run([os.path.join(ROOT, "bench", "instructions.sh")], env=environment, capture_output=True,
                            text=True, timeout=3600)
    if result.returncode != 0:
        log(f"  instructions.sh failed: {result.stderr.strip()[-500:]}")
        return {}
    counts = {}
    for line in open(tsv):
        name, side, values = line.rstrip("\n").split("\t")
        counts[(name, side)] = median([int(value) for value in values.split()])
    log(f"  {len(counts)} counts from {os.path.relpath(binary, ROOT)}")
    return counts


def summarise(cells):
    summary = {}
    for (name, connections), pairs in cells.items():
        row = {}
        for who in ("understudy", "baseline"):
            for key in ("rps", "p50", "p99", "cpu_us"):
                row[f"{who}_{key}"] = median([pair[who][key] for pair in pairs])
            row[f"{who}_errors"] = sum(pair[who]["socket_errors"] for pair in pairs)
        row["rps_ratio"] = median([p["understudy"]["rps"] / p["baseline"]["rps"] for p in pairs if p["baseline"]["rps"]])
        row["cpu_ratio"] = median([p["understudy"]["cpu_us"] / p["baseline"]["cpu_us"] for p in pairs
                                   if p["baseline"]["cpu_us"] == p["baseline"]["cpu_us"] and p["baseline"]["cpu_us"] > 0])
        row["rounds"] = [round(p["understudy"]["rps"] / p["baseline"]["rps"], 3) if p["baseline"]["rps"] else None
                         for p in pairs]
        summary[(name, connections)] = row
    return summary


def python_peer(map_path):
    script = os.path.join(ROOT, "bench", "py-http-server.py")
    server = Server("python http.server", [sys.executable, script, map_path])
    try:
        results = {}
        for name, target in (("GET /products/1", "/products/1"), ("GET /products (default page)", "/products")):
            results[name] = wrk(server, target, 32, PEER_SECONDS, timeout_s=5)
            log(f"  python http.server {name}: {results[name]['rps']:,.0f} req/s")
        return results
    finally:
        server.stop()


def install_mockintosh():
    """mockintosh 0.13.17 in .venv-bench, with the pins it needs on a current Python (markupsafe<2.1, tornado<6.5)."""
    binary = os.path.join(VENV, "bin", "mockintosh")
    if os.path.exists(binary):
        return binary, None
    try:
        if not os.path.exists(os.path.join(VENV, "bin", "pip")):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True, capture_output=True, timeout=120)
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", "mockintosh",
                        "markupsafe<2.1", "tornado<6.5"], check=True, capture_output=True, text=True, timeout=600)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        detail = getattr(error, "stderr", "") or str(error)
        return None, f"install failed: {detail.strip().splitlines()[-1] if detail.strip() else error}"
    return (binary, None) if os.path.exists(binary) else (None, "install gave no mockintosh command")


def mockintosh_peer(map_path, directory):
    binary, problem = install_mockintosh()
    if not binary:
        return None, problem
    port = free_port()
    endpoints = []
    with open(map_path) as mapping:
        for line in mapping:
            status, content_type, uri, path = line.rstrip("\n").split("\t")
            if uri in ("/products/1", "/products"):
                endpoints.append({"path": uri, "method": "GET",
                                  "response": {"status": int(status), "headers": {"Content-Type": content_type},
                                               "body": "@" + os.path.basename(path), "useTemplating": False}})
    endpoints.append({"path": "/__ready", "method": "GET", "response": {"status": 200, "body": "ok"}})
    config = os.path.join(directory, "mockintosh.json")
    with open(config, "w") as out:
        json.dump({"services": [{"name": "bench", "port": port, "endpoints": endpoints}]}, out)
    try:
        server = Server("mockintosh", [binary, config, "-q"], port=port, cwd=directory, ready_timeout=60)
    except RuntimeError as error:
        return None, str(error)
    try:
        results = {}
        for name, target in (("GET /products/1", "/products/1"), ("GET /products (default page)", "/products")):
            status, _, body = http_get(port, target)
            expected = open(os.path.join(directory, f"body-{0 if target == '/products/1' else 1}.bin"), "rb").read()
            if status != 200 or body != expected:
                return None, f"mockintosh served {status} with {len(body)} B for {target}, not the same bytes"
            results[name] = wrk(server, target, 32, PEER_SECONDS, timeout_s=5)
            log(f"  mockintosh {name}: {results[name]['rps']:,.0f} req/s")
        return results, None
    finally:
        server.stop()


def delayed_burst():
    """Two wrk runs on one fresh server: the first (reported as `cold`) opens 500 connections on a server that
    has served nothing; the second, the measured one, opens its 500 on a server that has. Each run starts with
    its own burst of 500 connects, so both include the burst at the start; only the first also pays for the
    server's first requests."""
    server = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet"])
    try:
        cold = wrk(server, "/products/1?delay=200", 500, 2 if QUICK else 3, timeout_s=2)
        result = wrk(server, "/products/1?delay=200", 500, 3 if QUICK else 5, timeout_s=2)
        result["cold"] = cold
        return result
    finally:
        server.stop()


def sse_fanout():
    server = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet"])
    try:
        cpu_before = server.cpu_seconds()
        started = time.time()
        process = subprocess.Popen([FANOUT, str(server.port), str(SSE_STREAMS), str(SSE_SECONDS), "100",
                                    "/products/stream?interval=100&heartbeat=0"], stdout=subprocess.PIPE, text=True)
        running.append(process)
        peak_rss = 0.0
        while process.poll() is None:
            peak_rss = max(peak_rss, server.rss_mib())
            time.sleep(0.2)
        output, _ = process.communicate(timeout=SSE_SECONDS + 60)
        running.remove(process)
        wall = time.time() - started
        result = json.loads(output)
        result["cpu_percent"] = (server.cpu_seconds() - cpu_before) / wall * 100
        result["peak_rss"] = peak_rss
        return result
    finally:
        server.stop()


THROTTLED_CONNECTIONS = 100


def throttled_connections(seconds=None):
    """100 connections at once, each reading `/products?limit=0` (309 KB) at `rate=16k` (about 19 s a reply, so
    all are paced for the whole window): the server's CPU over the window, as a share of one core. Each socket
    reads as the bytes come (a thread apiece, the bytes dropped)."""
    seconds = seconds or (5 if QUICK else 10)
    server = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet"])
    threading = __import__("threading")
    received, errors, sockets = [0] * THROTTLED_CONNECTIONS, [], []
    stopping = threading.Event()

    def reader(index, sock):
        try:
            while not stopping.is_set():
                chunk = sock.recv(65536)
                if not chunk:
                    return
                received[index] += len(chunk)
        except OSError as error:
            if not stopping.is_set():
                errors.append(str(error))

    try:
        request = (b"GET /products?limit=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   b"X-Understudy-Fault: rate=16k\r\n\r\n")
        threads = []
        for index in range(THROTTLED_CONNECTIONS):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            sock.sendall(request)
            sockets.append(sock)
            threads.append(threading.Thread(target=reader, args=(index, sock), daemon=True))
        for thread in threads:
            thread.start()
        time.sleep(1)  # every reply under way before the window opens
        cpu_before, started, bytes_before = server.cpu_seconds(), time.time(), sum(received)
        time.sleep(seconds)
        wall = time.time() - started
        cpu = server.cpu_seconds() - cpu_before
        rate = (sum(received) - bytes_before) / wall / THROTTLED_CONNECTIONS
        return {"connections": THROTTLED_CONNECTIONS, "seconds": wall, "cpu_percent": cpu / wall * 100,
                "rate_per_connection": rate, "errors": len(errors)}
    finally:
        stopping.set()
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        server.stop()


class FeedViewer:
    """One control-room viewer on a thread: reads `/__understudy/events` from the recent past on, and takes each
    request event's lag: when it arrived here, less when the request arrived at the server (`time`) and its
    `durationMs`, i.e. how long after the server finished with a request a viewer saw it. Same machine, same clock."""

    TIME = re.compile(rb'"time":"([0-9T:.-]+)Z".*?"durationMs":([0-9.]+|null)')

    def __init__(self, port):
        self.lags = []
        self.events = 0
        self.skipped = 0
        self.ended = None  # "closed" once the server ends the feed (a dropped viewer), or an error
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(b"GET /__understudy/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.stopping = False
        self.thread = __import__("threading").Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        buffer = b""
        try:
            while not self.stopping:
                chunk = self.sock.recv(262144)
                if not chunk:
                    self.ended = "closed"
                    return
                now = time.time()
                buffer += chunk
                lines = buffer.split(b"\n")
                buffer = lines.pop()
                for line in lines:
                    if line.startswith(b'data: {"id":'):
                        match = self.TIME.search(line)
                        if match:
                            arrived = datetime.datetime.strptime(match.group(1).decode(), "%Y-%m-%dT%H:%M:%S.%f")
                            arrived = arrived.replace(tzinfo=datetime.timezone.utc).timestamp()
                            duration = 0.0 if match.group(2) == b"null" else float(match.group(2)) / 1000
                            self.lags.append((now - arrived - duration) * 1000)
                            self.events += 1
                    elif line.startswith(b'data: {"requests":'):
                        self.skipped += int(re.search(rb'"requests":(\d+)', line).group(1))
        except OSError as error:
            if not self.stopping:
                self.ended = str(error)

    def stop(self):
        self.stopping = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.thread.join(timeout=5)


def control_room():
    """The control room's cost: `/products/1` (wrk c32) without and with one viewer following the feed, interleaved
    rounds with the order rotated; then ten viewers while wrk holds ~5,000 req/s (50 connections, a 10 ms pause
    between each one's requests): their lag p99, and how many were dropped."""
    server = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet"])
    try:
        ratios, without, with_feed = [], [], []
        for round_index in range(ROUNDS):
            results = {}
            for watched in ([False, True] if round_index % 2 == 0 else [True, False]):
                viewer = FeedViewer(server.port) if watched else None
                results[watched] = wrk(server, "/products/1", 32, CELL_SECONDS)
                if viewer:
                    viewer.stop()
            without.append(results[False]["rps"])
            with_feed.append(results[True]["rps"])
            ratios.append(results[True]["rps"] / results[False]["rps"])
            log(f"  round {round_index + 1}: {results[False]['rps']:,.0f} req/s alone, {results[True]['rps']:,.0f} "
                f"followed ({ratios[-1]:.2f}×; CPU µs/req {results[False]['cpu_us']:.1f} / {results[True]['cpu_us']:.1f})")
        script = os.path.join(BUILD, "paced.lua")
        with open(script, "w") as out:
            out.write('wrk.path = "/products/1"\nfunction delay() return 10 end\n')
        viewers = [FeedViewer(server.port) for _ in range(10)]
        paced = wrk_script(server, script, 50, CELL_SECONDS * 2)
        time.sleep(0.3)  # the last batch (one flush, 50 ms) reaches the viewers
        for viewer in viewers:
            viewer.stop()
        lags = sorted(lag for viewer in viewers for lag in viewer.lags)
        p99 = lags[int(len(lags) * 0.99) - 1] if lags else float("nan")
        dropped = sum(1 for viewer in viewers if viewer.ended == "closed")
        return {"rps_alone": median(without), "rps_followed": median(with_feed), "ratio": median(ratios),
                "rounds": ratios, "paced_rps": paced["rps"], "lag_p99": p99, "lag_p50": median(lags),
                "viewers_kept": 10 - dropped, "viewers_dropped": dropped,
                "events": sum(v.events for v in viewers), "skipped": sum(v.skipped for v in viewers)}
    finally:
        server.stop()


def tls_figures():
    """HTTPS beside http on one server (`--tls-port`): keep-alive `/products/1` over TLS against plain http (wrk
    c32, interleaved rounds with the order rotated), and the same for the evhttp baseline serving Understudy's bytes
    over bufferevent_openssl with the same certificate: wrk's own TLS work shares the 2 cores, so the baseline's
    ratio is the ceiling Understudy's is read against. Then full handshakes per second (wrk with `Connection: close`,
    so every request is a new connection and a full handshake), and the server's memory per idle TLS connection
    (RSS over 1,000 connections that finished their handshake and sit idle, against 1,000 idle plain ones, each on a
    fresh server)."""
    directory = tempfile.mkdtemp(prefix="understudy-bench-tls-")
    server = Server("understudy", [UNDERSTUDY, "--port", "0", "--tls-port", "0", "--tls-dir", directory, "--quiet"])
    baseline = None
    try:
        port = https_port(server)
        secure = types.SimpleNamespace(url=f"https://127.0.0.1:{port}", cpu_seconds=server.cpu_seconds)
        baseline, baseline_secure = tls_baseline(server, directory)
        pairs = {"understudy": (server, secure), "evhttp-c": (baseline, baseline_secure)}
        rounds = {who: {"ratios": [], "http": [], "https": [], "cpu": []} for who in pairs}
        for round_index in range(TLS_ROUNDS):
            for who_index, (who, (plain, tls)) in enumerate(pairs.items()):
                results = {}
                for which in (["http", "https"] if (round_index + who_index) % 2 == 0 else ["https", "http"]):
                    results[which] = wrk(plain if which == "http" else tls, "/products/1", 32, CELL_SECONDS)
                figures = rounds[who]
                figures["http"].append(results["http"]["rps"])
                figures["https"].append(results["https"]["rps"])
                figures["cpu"].append((results["http"]["cpu_us"], results["https"]["cpu_us"]))
                figures["ratios"].append(results["https"]["rps"] / results["http"]["rps"] if results["http"]["rps"] else 0.0)
                log(f"  round {round_index + 1} {who}: {results['http']['rps']:,.0f} req/s http, "
                    f"{results['https']['rps']:,.0f} https ({figures['ratios'][-1]:.2f}×; server CPU µs/req "
                    f"{results['http']['cpu_us']:.1f} / {results['https']['cpu_us']:.1f})")
        baseline.stop()
        argv = ["wrk", "-t1", "-c8", f"-d{CELL_SECONDS}s", "-H", "Connection: close", secure.url + "/products/1"]
        output = subprocess.run(argv, capture_output=True, text=True, timeout=CELL_SECONDS + 60).stdout
        handshakes = float(re.search(r"Requests/sec:\s+([0-9.]+)", output).group(1))
        errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
        log(f"  {handshakes:,.0f} full handshakes/s (c8, Connection: close)")
        idle = {kind: idle_connection_kib(directory, kind) for kind in ("plain", "tls")}
        log(f"  idle connection: {idle['tls']:.1f} KiB over TLS, {idle['plain']:.1f} KiB plain")
        ours, ceiling = rounds["understudy"], rounds["evhttp-c"]
        return {"ratio": median(ours["ratios"]), "rounds": ours["ratios"], "rps_http": median(ours["http"]),
                "rps_https": median(ours["https"]), "cpu_http": median([c[0] for c in ours["cpu"]]),
                "cpu_https": median([c[1] for c in ours["cpu"]]),
                "baseline_ratio": median(ceiling["ratios"]), "baseline_rounds": ceiling["ratios"],
                "baseline_cpu_http": median([c[0] for c in ceiling["cpu"]]),
                "baseline_cpu_https": median([c[1] for c in ceiling["cpu"]]),
                "handshakes_per_s": handshakes, "handshake_errors": sum(map(int, errors.groups())) if errors else 0,
                "idle_kib_tls": idle["tls"], "idle_kib_plain": idle["plain"]}
    finally:
        server.stop()
        if baseline:
            baseline.stop()
        shutil.rmtree(directory, ignore_errors=True)


def tls_baseline(server, directory):
    """The evhttp baseline serving Understudy's `/products/1` bytes over http and, with the certificate Understudy
    made in `directory`, over HTTPS: (the server, its HTTPS side)."""
    status, head, body = http_get(server.port, "/products/1")
    content_type = re.search(r"(?im)^content-type:\s*(.+?)\s*$", head).group(1)
    body_path, map_path = os.path.join(directory, "products-1.json"), os.path.join(directory, "baseline.tsv")
    with open(body_path, "wb") as out:
        out.write(body)
    with open(map_path, "w") as out:
        out.write(f"{status}\t{content_type}\t/products/1\t{body_path}\n")
    baseline = Server("evhttp-c", [BASELINE, map_path, os.path.join(directory, "localhost.pem"),
                                   os.path.join(directory, "localhost-key.pem")])
    line = read_line(baseline.process.stdout, time.time() + 10) or ""
    match = re.search(r"https://[0-9.]+:(\d+)", line)
    if not match:
        baseline.stop()
        raise RuntimeError(f"evhttp-c: no HTTPS URL on its second line ({line!r})")
    return baseline, types.SimpleNamespace(url=f"https://127.0.0.1:{match.group(1)}", cpu_seconds=baseline.cpu_seconds)


def https_port(server):
    """The HTTPS port a `--tls-port 0` server prints on its second line (`HTTPS on https://127.0.0.1:PORT`)."""
    line = ""
    deadline = time.time() + 10
    while "HTTPS on" not in line and time.time() < deadline:
        line = read_line(server.process.stdout, deadline) or ""
    return int(re.search(r"https://[0-9.]+:(\d+)", line).group(1))


def idle_connection_kib(directory, kind):
    """The server's RSS growth per connection over 1,000 idle ones (TLS ones with their handshake done), on a fresh
    server each time, so memory freed by earlier load (which the allocator keeps) does not hide the growth."""
    server = Server("understudy", [UNDERSTUDY, "--port", "0", "--tls-port", "0", "--tls-dir", directory, "--quiet"])
    try:
        port = https_port(server) if kind == "tls" else server.port
        context = ssl.create_default_context(cafile=os.path.join(directory, "understudy-ca.pem"))
        warm = socket.create_connection(("127.0.0.1", port))
        warm = context.wrap_socket(warm, server_hostname="127.0.0.1") if kind == "tls" else warm
        time.sleep(0.5)
        before = server.rss_mib()
        sockets = []
        for _ in range(1_000):
            connection = socket.create_connection(("127.0.0.1", port))
            sockets.append(context.wrap_socket(connection, server_hostname="127.0.0.1") if kind == "tls" else connection)
        time.sleep(0.5)
        grown = (server.rss_mib() - before) * 1024 / len(sockets)
        for connection in sockets + [warm]:
            connection.close()
        return grown
    finally:
        server.stop()


def startup_ms(argv_tail, timeout=10.0, binary=UNDERSTUDY):
    """Process launch to the first 200 for GET /products/1, polled from a socket every 0.5 ms."""
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen([binary, "--port", str(port), "--quiet", *argv_tail],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    running.append(process)
    try:
        while time.perf_counter() - started < timeout:
            if http_status(port, "/products/1", timeout=timeout) == 200:
                elapsed = (time.perf_counter() - started) * 1e3
                time.sleep(0.3)
                with open(f"/proc/{process.pid}/status") as status:
                    rss = int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1)) / 1024
                return elapsed, rss
            if process.poll() is not None:
                raise RuntimeError(f"understudy exited with {process.returncode} during start-up")
            time.sleep(0.0005)
        raise RuntimeError("understudy did not answer within the start-up timeout")
    finally:
        stop_process(process)


def rss_figures():
    server = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet"])
    try:
        http_get(server.port, "/products/1")
        time.sleep(0.5)
        idle = server.rss_mib()
        load = wrk(server, "/products", 256, CELL_SECONDS, sample_rss=True)
        after = server.rss_mib()
        return idle, load["peak_rss"], after
    finally:
        server.stop()


def write_catalogue(size, directory):
    """DummyJSON's bare-array format, the 194 built-in products as templates, ids renumbered 1…size."""
    with open(os.path.join(ROOT, "fixtures", "products.json")) as source:
        templates = json.load(source)
    path = os.path.join(directory, "products.json")
    with open(path, "w") as out:
        out.write("[")
        for index in range(size):
            product = dict(templates[index % len(templates)])
            product["id"] = index + 1
            if index >= len(templates):
                product["sku"] = f"{product.get('sku', 'SKU')}-{index // len(templates)}"
            if index:
                out.write(",\n")
            out.write(json.dumps(product, separators=(",", ":")))
        out.write("]\n")
    return os.path.getsize(path)


UNIQUE_LUA = """
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "%s" .. counter)
end
"""


def unique_lua(directory, target):
    """A wrk script giving every request its own target (`<target><counter>`), so the reply cache never answers."""
    path = os.path.join(directory, "unique-" + re.sub(r"[^a-z0-9]+", "-", target) + ".lua")
    with open(path, "w") as out:
        out.write(UNIQUE_LUA % target)
    return path


def keep_alive_get(connection, target):
    """One GET on a kept-alive connection: (status, body length)."""
    connection.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(1 << 16)
        if not chunk:
            raise RuntimeError(f"the connection closed during {target}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"content-length: *(\d+)", head, re.I).group(1))
    while len(body) < length:
        chunk = connection.recv(1 << 20)
        if not chunk:
            raise RuntimeError(f"the connection closed during {target}")
        body += chunk
    return int(head[9:12]), len(body)


def loop_time(port, target):
    """A request's cost to everyone else: `target` is sent on its own connection while a probe sends `/products/1`
    again and again on another (kept alive); the loop is held for as long as the slowest probe waited. Returns the
    request's own latency and the slowest probe's, in ms (the probe's floor is ~0.1 ms)."""
    probe = socket.create_connection(("127.0.0.1", port), timeout=30)
    probe.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    keep_alive_get(probe, "/products/1")
    done = threading.Event()
    own = {}

    def send():
        with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
            started = time.perf_counter()
            own["status"], _ = keep_alive_get(connection, target)
            own["ms"] = (time.perf_counter() - started) * 1e3
        done.set()

    thread = threading.Thread(target=send)
    thread.start()
    probes = []
    try:
        while not done.is_set():
            started = time.perf_counter()
            keep_alive_get(probe, "/products/1")
            probes.append((time.perf_counter() - started) * 1e3)
    finally:
        thread.join(timeout=60)
        probe.close()
    if own.get("status") != 200:
        raise RuntimeError(f"{target} answered {own.get('status')}")
    return own["ms"], max(probes) if probes else 0.0


def first_index_requests(port):
    """The first search and the first sort of a fresh server (each builds an index), then a sort by the same field
    with a target of its own (the order kept): own latency and the loop time each cost, in ms."""
    search_own, search_loop = loop_time(port, "/products/search?q=phone")
    sort_own, sort_loop = loop_time(port, "/products?sortBy=title&limit=10")
    again_own, again_loop = loop_time(port, "/products?sortBy=title&order=desc&skip=7&limit=10")
    return {"first_search_ms": search_own, "first_search_loop_ms": search_loop, "first_sort_ms": sort_own,
            "first_sort_loop_ms": sort_loop, "sort_again_ms": again_own, "sort_again_loop_ms": again_loop}


def first_filter_requests(folder):
    """The same items as your own collection (`goods`, on a server of its own): its first filter (which builds the
    index of the key's values), then another value of the same key (the index kept): own latency and the loop time
    each cost, in ms."""
    own = os.path.join(folder, "own")
    os.makedirs(own, exist_ok=True)
    os.link(os.path.join(folder, "products.json"), os.path.join(own, "goods.json"))
    server = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet", "--fixtures", own], ready_timeout=180)
    try:
        filter_own, filter_loop = loop_time(server.port, "/goods/filter?key=category&value=smartphones")
        again_own, again_loop = loop_time(server.port, "/goods/filter?key=category&value=laptops")
    finally:
        server.stop()
    return {"first_filter_ms": filter_own, "first_filter_loop_ms": filter_loop, "filter_again_ms": again_own,
            "filter_again_loop_ms": again_loop}


def catalogues(directory):
    lua = unique_lua(directory, "/products/search?q=phone&n=")
    page_lua = unique_lua(directory, "/products?n=")
    rows = []
    for size in CATALOGUE_SIZES:
        folder = os.path.join(directory, f"catalogue-{size}")
        os.makedirs(folder, exist_ok=True)
        file_bytes = write_catalogue(size, folder)
        startups = [startup_ms(["--fixtures", folder], timeout=180) for _ in range(3)]
        server = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet", "--fixtures", folder], ready_timeout=180)
        try:
            first = first_index_requests(server.port)
            seconds = max(1, CELL_SECONDS // 2)
            one = wrk(server, "/products/1", 32, seconds)
            search = wrk(server, "/products/search?q=phone", 32, seconds)
            unique = wrk_script(server, lua, 32, seconds)
            page = wrk_script(server, page_lua, 32, seconds)
            rss = server.rss_mib()
        finally:
            server.stop()
        first.update(first_filter_requests(folder))
        rows.append({"size": size, "file_mb": file_bytes / 1e6, "startup_ms": median([s[0] for s in startups]),
                     "startup_runs": [s[0] for s in startups],
                     "startup_rss": median([s[1] for s in startups]), "rss_after": rss,
                     "one_rps": one["rps"], "search_rps": search["rps"], "unique_rps": unique["rps"],
                     "unique_p50": unique["p50"], "unique_cpu": unique["cpu_us"], "page_cpu": page["cpu_us"], **first})
        log(f"  {size:,} products: start-up {rows[-1]['startup_ms']:.0f} ms, RSS {rss:.1f} MiB, "
            f"/products/1 {one['rps']:,.0f}, search {search['rps']:,.0f}, uncached search {unique['rps']:,.0f} req/s; "
            f"first search {first['first_search_ms']:.0f} ms (loop {first['first_search_loop_ms']:.1f} ms), first sort "
            f"{first['first_sort_ms']:.0f} ms (loop {first['first_sort_loop_ms']:.1f} ms), sort again "
            f"{first['sort_again_ms']:.1f} ms, first filter {first['first_filter_ms']:.0f} ms (loop "
            f"{first['first_filter_loop_ms']:.1f} ms)")
        shutil.rmtree(folder, ignore_errors=True)
    return rows


def resource_scale(directory):
    """Each resource's uncached first page (CPU per request) at its shipped size and at 10,000 items.

    The 10,000-item files repeat the shipped items with ids renumbered (usernames made unique), loaded with
    `--fixtures`: users as the login directory, the others as your own collections of the same name, which the
    same engine serves.
    """
    size = 1_000 if QUICK else 10_000
    folder = os.path.join(directory, "resources-10k")
    os.makedirs(folder, exist_ok=True)
    shipped = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet"])
    counts = {}
    try:
        for name in RESOURCES:
            status, _, body = http_get(shipped.port, f"/{name}?limit=0")
            items = json.loads(body)[name]
            counts[name] = len(items)
            grown = []
            for index in range(size):
                item = dict(items[index % len(items)])
                item["id"] = index + 1
                if name == "users" and index >= len(items):
                    item["username"] = f"{item['username']}{index // len(items)}"
                grown.append(item)
            with open(os.path.join(folder, f"{name}.json"), "w") as out:
                json.dump(grown, out, separators=(",", ":"))
        seconds = max(1, CELL_SECONDS // 2)
        scripts = {name: unique_lua(directory, f"/{name}?n=") for name in RESOURCES}
        small = {name: wrk_script(shipped, scripts[name], 32, seconds)["cpu_us"] for name in RESOURCES}
    finally:
        shipped.stop()
    large_server = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet", "--fixtures", folder], ready_timeout=60)
    try:
        large = {name: wrk_script(large_server, scripts[name], 32, seconds)["cpu_us"] for name in RESOURCES}
    finally:
        large_server.stop()
    rows = [{"name": name, "shipped": counts[name], "size": size, "shipped_cpu": small[name], "large_cpu": large[name]}
            for name in RESOURCES]
    for row in rows:
        log(f"  /{row['name']}: {row['shipped_cpu']:.1f} µs at {row['shipped']:,}, {row['large_cpu']:.1f} µs at {size:,}")
    return rows


def wrk_script(server, script, connections, seconds):
    argv = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout=5s", "-s", script,
            "-H", "Connection: keep-alive", server.url]
    cpu_before = server.cpu_seconds()
    output = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60).stdout
    cpu = server.cpu_seconds() - cpu_before
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    p50 = re.search(r"^\s+50%\s+(\S+)", output, re.M)
    return {"rps": float(re.search(r"Requests/sec:\s+([0-9.]+)", output).group(1)), "requests": requests,
            "p50": parse_duration_ms(p50.group(1)) if p50 else float("nan"),
            "cpu_us": cpu * 1e6 / requests if requests else float("nan")}


# ------------------------------------------------------------------------------------- in front of your own API

PROXY_TARGET = "/products/1"
REPLAY_TARGETS = [("replayed GET /products/1", "/products/1"), ("replayed GET /products (default page)", "/products")]
RECORD_EXCHANGES = 2_000 if QUICK else 10_000
RECORD_CONNECTIONS = 16


def recording_status(port):
    status, _, body = http_get(port, "/__understudy/recording")
    return json.loads(body) if status == 200 else {}


def wait_recorded(port, count, timeout):
    """Polls a recording proxy until `count` exchanges were handed to its writer and none waits for the disk."""
    deadline = time.time() + timeout
    status = recording_status(port)
    while time.time() < deadline:
        if status.get("recorded", 0) + status.get("skipped", 0) >= count and status.get("pendingBytes") == 0:
            break
        time.sleep(0.05)
        status = recording_status(port)
    return status


def recording_files(folder):
    """(files a loader reads, hidden temporary files) below a recording's directory, the manifest left out."""
    files, hidden = [], []
    for parent, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in names:
            if name.startswith("."):
                hidden.append(name)
            elif name.endswith(".json") and not (parent == folder and name == "understudy-recording.json"):
                files.append(os.path.join(parent, name))
    return files, hidden


def proxied():
    """`--upstream` in front of a second Understudy against that Understudy directly: GET /products/1, wrk c32, in
    interleaved rounds with the order rotated; then one connection, the time a hop adds with nothing queued."""
    upstream = Server("upstream", [UNDERSTUDY, "--port", "0", "--quiet"])
    proxy = Server("proxy", [UNDERSTUDY, "--port", "0", "--quiet", "--upstream", upstream.url])
    try:
        direct, forwarded = http_get(upstream.port, PROXY_TARGET), http_get(proxy.port, PROXY_TARGET)
        if (direct[0], direct[2]) != (forwarded[0], forwarded[2]):
            raise RuntimeError("the proxy's GET /products/1 differs from the upstream's")
        cells = {32: [], 1: []}
        for round_index in range(ROUNDS):
            for connections in (32, 1):
                order = ["direct", "proxied"] if (round_index + connections) % 2 == 0 else ["proxied", "direct"]
                pair = {}
                for who in order:
                    upstream_cpu = upstream.cpu_seconds()
                    seconds = CELL_SECONDS if connections == 32 else max(1, CELL_SECONDS // 2)
                    pair[who] = wrk(proxy if who == "proxied" else upstream, PROXY_TARGET, connections, seconds)
                    if who == "proxied" and pair[who]["requests"]:
                        pair[who]["upstream_cpu_us"] = (upstream.cpu_seconds() - upstream_cpu) * 1e6 / pair[who]["requests"]
                cells[connections].append(pair)
                d, p = pair["direct"], pair["proxied"]
                log(f"  c{connections}: direct {d['rps']:,.0f} req/s p50 {d['p50']:.3f} ms · proxied {p['rps']:,.0f} "
                    f"req/s p50 {p['p50']:.3f} ms (CPU µs/req proxy {p['cpu_us']:.1f}, upstream "
                    f"{p.get('upstream_cpu_us', float('nan')):.1f}, direct {d['cpu_us']:.1f})")
        result = {}
        for connections, pairs in cells.items():
            row = {f"{who}_{key}": median([pair[who][key] for pair in pairs])
                   for who in ("direct", "proxied") for key in ("rps", "p50", "p99", "cpu_us")}
            row["upstream_cpu_us"] = median([pair["proxied"].get("upstream_cpu_us", float("nan")) for pair in pairs])
            row["added_p50"] = median([pair["proxied"]["p50"] - pair["direct"]["p50"] for pair in pairs])
            row["added_rounds"] = [pair["proxied"]["p50"] - pair["direct"]["p50"] for pair in pairs]
            row["ratio"] = median([pair["proxied"]["rps"] / pair["direct"]["rps"] for pair in pairs if pair["direct"]["rps"]])
            row["rounds"] = [pair["proxied"]["rps"] / pair["direct"]["rps"] for pair in pairs if pair["direct"]["rps"]]
            row["errors"] = sum(pair[who]["socket_errors"] + pair[who]["non2xx"] for pair in pairs for who in pair)
            result[connections] = row
        return result
    finally:
        proxy.stop()
        upstream.stop()


def replayed(directory):
    """Records REPLAY_TARGETS through a proxy into a directory, serves it with `--replay`, and compares that with
    the bare evhttp server serving the replayed bytes, as the A/B rows do."""
    folder = os.path.join(directory, "replayed")
    upstream = Server("upstream", [UNDERSTUDY, "--port", "0", "--quiet"])
    try:
        recorder = Server("recording proxy", [UNDERSTUDY, "--port", "0", "--quiet", "--upstream", upstream.url,
                                              "--record", folder])
        try:
            for _, target in REPLAY_TARGETS:
                if http_get(recorder.port, target)[0] != 200:
                    raise RuntimeError(f"the recording proxy did not answer {target} with 200")
            wait_recorded(recorder.port, len(REPLAY_TARGETS), 30)
        finally:
            recorder.stop()
    finally:
        upstream.stop()
    replay = Server("replay", [UNDERSTUDY, "--port", "0", "--quiet", "--replay", folder])
    baseline = None
    try:
        lines = []
        for index, (name, target) in enumerate(REPLAY_TARGETS):
            status, head, body = http_get(replay.port, target)
            if status != 200:
                raise RuntimeError(f"the replay answered {target} with {status}")
            content_type = re.search(r"(?im)^content-type:\s*(.+?)\s*$", head).group(1)
            path = os.path.join(directory, f"replayed-{index}.bin")
            with open(path, "wb") as out:
                out.write(body)
            lines.append(f"{status}\t{content_type}\t{target}\t{path}")
            log(f"  {name}: {status}, {len(body):,} B")
        map_path = os.path.join(directory, "replayed.tsv")
        with open(map_path, "w") as out:
            out.write("\n".join(lines) + "\n")
        baseline = Server("evhttp-c", [BASELINE, map_path])
        for index, (name, target) in enumerate(REPLAY_TARGETS):
            if http_get(baseline.port, target)[2] != open(os.path.join(directory, f"replayed-{index}.bin"), "rb").read():
                raise RuntimeError(f"the baseline's body for {name} differs from the replay's")
        cells = {}
        for round_index in range(ROUNDS):
            for scenario_index, (name, target) in enumerate(REPLAY_TARGETS):
                for connections in CONNECTIONS:
                    order = ["understudy", "baseline"]
                    if (round_index + scenario_index + connections) % 2:
                        order.reverse()
                    pair = {who: wrk(replay if who == "understudy" else baseline, target, connections, CELL_SECONDS)
                            for who in order}
                    cells.setdefault((name, connections), []).append(pair)
                    u, b = pair["understudy"], pair["baseline"]
                    log(f"  {name} c{connections}: replay {u['rps']:,.0f} req/s {u['cpu_us']:.1f} µs "
                        f"· baseline {b['rps']:,.0f} req/s {b['cpu_us']:.1f} µs")
        return summarise(cells)
    finally:
        replay.stop()
        if baseline:
            baseline.stop()


def drive_distinct(port, count, connections):
    """GETs `/products/<1…194>?n=<n>` for n in 0…count-1 on `connections` kept-alive connections (threads): every
    request a target of its own, every reply a real product. Returns the statuses seen."""
    import http.client, threading
    statuses, lock = {}, threading.Lock()

    def run(first):
        seen = {}
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            for n in range(first, count, connections):
                connection.request("GET", f"/products/{1 + n % 194}?n={n}")
                reply = connection.getresponse()
                reply.read()
                seen[reply.status] = seen.get(reply.status, 0) + 1
        except OSError as error:
            seen[str(error)] = seen.get(str(error), 0) + 1
        finally:
            connection.close()
            with lock:
                for key, value in seen.items():
                    statuses[key] = statuses.get(key, 0) + value

    threads = [threading.Thread(target=run, args=(first,), daemon=True) for first in range(connections)]
    for thread in threads:
        thread.start()
    return threads, statuses


def peak_rss_mib(pid):
    """The kernel's high-water mark of a process's resident set (VmHWM), MiB."""
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmHWM:\s+(\d+)", status.read()).group(1)) / 1024


def recording_memory(directory):
    """A proxy with `--record DIR` forwarding RECORD_EXCHANGES distinct requests: its peak RSS (sampled from /proc
    and the kernel's high-water mark, until the last exchange is on disk); then the directory: its files, any
    temporary file left, and `--replay DIR` loading it."""
    folder = os.path.join(directory, "recorded")
    upstream = Server("upstream", [UNDERSTUDY, "--port", "0", "--quiet"])
    proxy = Server("recording proxy", [UNDERSTUDY, "--port", "0", "--quiet", "--upstream", upstream.url,
                                       "--record", folder])
    try:
        idle = proxy.rss_mib()
        started = time.time()
        threads, statuses = drive_distinct(proxy.port, RECORD_EXCHANGES, RECORD_CONNECTIONS)
        sampled = 0.0
        while any(thread.is_alive() for thread in threads) and time.time() - started < 600:
            sampled = max(sampled, proxy.rss_mib())
            time.sleep(0.05)
        forwarded_s = time.time() - started
        status = wait_recorded(proxy.port, RECORD_EXCHANGES, 300)
        written_s = time.time() - started
        peak = max(sampled, peak_rss_mib(proxy.pid))
        after = proxy.rss_mib()
    finally:
        proxy.stop()
        upstream.stop()
    files, hidden = recording_files(folder)
    size = sum(os.path.getsize(path) for path in files)
    load_started = time.perf_counter()
    replay = Server("replay", [UNDERSTUDY, "--port", "0", "--quiet", "--replay", folder], ready_timeout=120)
    try:
        load_ms = (time.perf_counter() - load_started) * 1e3
        described = read_line(replay.process.stdout, time.time() + 10) or ""
        match = re.search(r"Replaying (\d+) recorded requests", described)
        replayed_keys = int(match.group(1)) if match else 0
        sample = http_get(replay.port, "/products/7?n=6")[0]
    finally:
        replay.stop()
    result = {"exchanges": RECORD_EXCHANGES, "statuses": {str(k): v for k, v in statuses.items()}, "idle_rss": idle,
              "peak_rss": peak, "rss_after": after, "forwarded_s": forwarded_s, "written_s": written_s,
              "recorded": status.get("recorded", 0), "skipped": status.get("skipped", 0),
              "pending": status.get("pendingBytes"), "files": len(files), "temporary": len(hidden),
              "bytes": size, "replay_keys": replayed_keys, "replay_ms": load_ms, "replay_sample_status": sample}
    log(f"  {result}")
    return result


RECORD_LOAD_SECONDS = 10 if QUICK else 60
RECORD_LOAD_TARGET = "/products?limit=30"


def recording_under_load(directory):
    """wrk at c32 for RECORD_LOAD_SECONDS through `--record` against a local upstream, every request a target of
    its own (~30 KB replies), beside the same proxy without `--record`: nothing may be lost (each request wrk
    completed is a file, none is skipped), and the recorder's exchanges/s and MB/s, counted until the last one is
    on disk, stand beside the proxy's own req/s. The recorder holds requests back while its disk is behind rather
    than drop them."""
    script = os.path.join(directory, "distinct.lua")
    with open(script, "w") as handle:
        handle.write('counter = 0\nrequest = function()\n  counter = counter + 1\n'
                     f'  return wrk.format("GET", "{RECORD_LOAD_TARGET}&n=" .. counter)\nend\n')
    upstream = Server("upstream", [UNDERSTUDY, "--port", "0", "--quiet"])
    try:
        plain = Server("proxy", [UNDERSTUDY, "--port", "0", "--quiet", "--upstream", upstream.url])
        try:
            proxied = wrk_script(plain, script, 32, min(RECORD_LOAD_SECONDS, 10))
        finally:
            plain.stop()
        folder = os.path.join(directory, "under-load")
        recorder = Server("recording proxy", [UNDERSTUDY, "--port", "0", "--quiet", "--upstream", upstream.url,
                                              "--record", folder])
        try:
            started = time.time()
            loaded = wrk_script(recorder, script, 32, RECORD_LOAD_SECONDS)
            status = wait_recorded(recorder.port, loaded["requests"], 600)
            written_s = time.time() - started
        finally:
            recorder.stop()
    finally:
        upstream.stop()
    files, hidden = recording_files(folder)
    size = sum(os.path.getsize(path) for path in files)
    result = {"seconds": RECORD_LOAD_SECONDS, "proxy_rps": proxied["rps"], "requests": loaded["requests"],
              "recording_rps": loaded["rps"], "recorded": status.get("recorded", 0), "skipped": status.get("skipped", 0),
              "files": len(files), "temporary": len(hidden), "written_s": written_s,
              "exchanges_per_s": len(files) / written_s if written_s else 0.0, "mb_per_s": size / written_s / 1e6,
              "lost": loaded["requests"] - len(files)}
    log(f"  {result}")
    return result


def in_front_of_an_api(directory):
    """Issue 22's figures: forwarding, replaying and recording."""
    log("proxied GET /products/1:")
    proxy = proxied()
    log("replayed routes:")
    replay = replayed(directory)
    log(f"recording {RECORD_EXCHANGES:,} exchanges:")
    record = recording_memory(directory)
    log(f"recording under load, {RECORD_LOAD_SECONDS} s at c32:")
    load = recording_under_load(directory)
    return {"proxy": proxy, "replay": replay, "record": record, "load": load}


def api_report(results):
    """The verdict rows and the table of the proxy, replay and recording figures."""
    rows = []
    loaded, alone = results["proxy"][32], results["proxy"][1]
    rounds = ", ".join(f"{r:.2f}" for r in loaded["rounds"])
    added = ", ".join(f"{a:+.2f}" for a in loaded["added_rounds"])
    rows.append(("Proxied GET /products/1 (`--upstream` to a second Understudy) vs that upstream directly, c32",
                 "adds ≤ 0.3 ms at p50, ≥ 0.6× direct req/s",
                 f"p50 {loaded['proxied_p50']:.2f} vs {loaded['direct_p50']:.2f} ms, {loaded['added_p50']:+.2f} ms "
                 f"({added}); {loaded['ratio']:.2f}× ({rounds}; {fmt(loaded['proxied_rps'])} vs "
                 f"{fmt(loaded['direct_rps'])} req/s); CPU µs/req proxy {loaded['proxied_cpu_us']:.1f} + upstream "
                 f"{loaded['upstream_cpu_us']:.1f} vs {loaded['direct_cpu_us']:.1f} direct; one connection: p50 "
                 f"{alone['added_p50']:+.3f} ms ({alone['proxied_p50']:.3f} vs {alone['direct_p50']:.3f})"
                 + (f"; {loaded['errors'] + alone['errors']} errors" if loaded["errors"] + alone["errors"] else ""),
                 verdict(loaded["added_p50"] <= 0.3 and loaded["ratio"] >= 0.6)))
    measured, ok = [], True
    for name, _ in REPLAY_TARGETS:
        for connections in CONNECTIONS:
            row = results["replay"][(name, connections)]
            ok &= row["rps_ratio"] >= 0.90
            measured.append(f"{name.replace('replayed ', '').split(' (')[0]} c{connections}: {row['rps_ratio']:.2f}× "
                            f"({fmt(row['understudy_rps'])} vs {fmt(row['baseline_rps'])} req/s, CPU "
                            f"{row['understudy_cpu_us']:.1f} vs {row['baseline_cpu_us']:.1f} µs)")
    rows.append(("Replayed routes (`--replay DIR`, recorded through a proxy) vs evhttp-c", "≥ 0.90× baseline req/s",
                 "; ".join(measured), verdict(ok)))
    record = results["record"]
    all_ok = record["statuses"] == {"200": record["exchanges"]}
    keys_ok = record["files"] == record["exchanges"] == record["replay_keys"] and record["replay_sample_status"] == 200
    rows.append((f"Recording {record['exchanges']:,} exchanges (`--record DIR`, distinct `/products/<id>?n=<n>`, "
                 f"{RECORD_CONNECTIONS} connections)", "peak RSS ≤ 100 MiB; the directory loads with every request",
                 f"peak RSS {record['peak_rss']:.1f} MiB (idle {record['idle_rss']:.1f}, {record['rss_after']:.1f} "
                 f"after); forwarded in {record['forwarded_s']:.1f} s, on disk after {record['written_s']:.1f} s, "
                 f"{record['recorded']:,} recorded, {record['skipped']} skipped; {record['files']:,} files "
                 f"({record['bytes'] / 2**20:.1f} MiB), {record['temporary']} temporary left; `--replay` loads "
                 f"{record['replay_keys']:,} request keys in {record['replay_ms']:.0f} ms"
                 + ("" if all_ok else f"; replies {record['statuses']}"),
                 verdict(record["peak_rss"] <= 100 and all_ok and keys_ok)))
    load = results["load"]
    rows.append((f"Recording under load: {load['seconds']} s of wrk at c32 through `--record`, every request its own "
                 f"target (`{RECORD_LOAD_TARGET}&n=<n>`, ~30 KB)",
                 "no exchange lost; recorder exchanges/s ≥ the proxy's own req/s",
                 f"{load['requests']:,} requests at {fmt(load['recording_rps'])} req/s (the proxy alone: "
                 f"{fmt(load['proxy_rps'])}); {load['files']:,} files, {load['lost']} lost, {load['skipped']} skipped, "
                 f"{load['temporary']} temporary left; all on disk after {load['written_s']:.1f} s: "
                 f"{fmt(load['exchanges_per_s'])} exchanges/s, {load['mb_per_s']:.1f} MB/s",
                 verdict(load["lost"] == 0 and load["skipped"] == 0
                         and load["exchanges_per_s"] >= load["proxy_rps"])))
    lines = ["", "## In front of your own API (issue 22)", "",
             "Understudy `--upstream` forwarding to a second Understudy on the same machine (both the release build), "
             "`--replay` serving a directory recorded through such a proxy, and `--record` writing "
             f"{record['exchanges']:,} distinct exchanges. The replayed cells are A/B against evhttp-c serving the "
             "replayed status, Content-Type and body; the proxied cells against the upstream itself. Medians of "
             f"{ROUNDS} interleaved rounds, {CELL_SECONDS} s cells (one connection: {max(1, CELL_SECONDS // 2)} s).", "",
             "| scenario | conns | Understudy req/s | other req/s | ratio (per round) | Understudy p50 / p99 ms | "
             "other p50 / p99 ms | CPU µs/req Understudy / other |", "|---|---|---|---|---|---|---|---|"]
    for connections in (32, 1):
        row = results["proxy"][connections]
        lines.append(f"| proxied GET /products/1 vs direct | {connections} | {fmt(row['proxied_rps'])} | "
                     f"{fmt(row['direct_rps'])} | {row['ratio']:.2f} ({', '.join(f'{r:.2f}' for r in row['rounds'])}) | "
                     f"{row['proxied_p50']:.3f} / {row['proxied_p99']:.2f} | {row['direct_p50']:.3f} / "
                     f"{row['direct_p99']:.2f} | {row['proxied_cpu_us']:.1f} + {row['upstream_cpu_us']:.1f} upstream / "
                     f"{row['direct_cpu_us']:.1f} |")
    for name, _ in REPLAY_TARGETS:
        for connections in CONNECTIONS:
            row = results["replay"][(name, connections)]
            rounds = ", ".join(f"{r:.2f}" for r in row["rounds"] if r is not None)
            lines.append(f"| {name} vs evhttp-c | {connections} | {fmt(row['understudy_rps'])} | "
                         f"{fmt(row['baseline_rps'])} | {row['rps_ratio']:.2f} ({rounds}) | "
                         f"{row['understudy_p50']:.2f} / {row['understudy_p99']:.2f} | {row['baseline_p50']:.2f} / "
                         f"{row['baseline_p99']:.2f} | {row['understudy_cpu_us']:.1f} / {row['baseline_cpu_us']:.1f} |")
    return rows, lines


# ------------------------------------------------------------------------------------------------------- report

def swift_bench(*argv):
    """Runs the Swift in-process benchmark (Sources/UnderstudyBench) and returns the JSON object it prints."""
    result = subprocess.run([SWIFT_BENCH, *argv], capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"UnderstudyBench {' '.join(argv)} failed: {result.stderr.strip()}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def verdict(ok):
    return "PASS" if ok else "MISS"


def report(info, summary, python_results, mock_results, mock_problem, delay, sse, startup, other_startups, rss,
           in_process, client, catalogue_rows, started_at, command, room=None, scale_rows=(), tls=None, throttled=None,
           api=None, instructions=None, spec_rows=(), websocket_rows=()):
    rows = []  # figure, target, measured, verdict
    api_rows, api_lines = api_report(api) if api else ([], [])

    def cell(name, connections):
        return summary[(name, connections)]

    for name, _, headers, rps_bar, cpu_bar in SCENARIOS:
        measured, ok = [], True
        for connections in CONNECTIONS:
            row = cell(name, connections)
            ok &= row["rps_ratio"] >= rps_bar
            text = (f"c{connections}: {row['rps_ratio']:.2f}× ({fmt(row['understudy_rps'])} vs "
                    f"{fmt(row['baseline_rps'])} req/s)")
            if cpu_bar:
                ok &= row["cpu_ratio"] <= cpu_bar
                text += f", CPU {row['cpu_ratio']:.2f}× ({row['understudy_cpu_us']:.1f} vs {row['baseline_cpu_us']:.1f} µs)"
            measured.append(text)
        ours, theirs = (instructions or {}).get((name, "understudy")), (instructions or {}).get((name, "evhttp-c"))
        if ours and theirs:
            measured.append(f"{fmt(ours)} vs {fmt(theirs)} instructions/req")
        target = f"≥ {rps_bar:.2f}× baseline req/s" + (f", CPU/req ≤ {cpu_bar:.2f}×" if cpu_bar else "")
        if headers:
            target += " (baseline serves the same 503 bytes)"
        rows.append((name + " vs evhttp-c", target, "; ".join(measured), verdict(ok)))

    resource_cells = [(name, cell(name, 32)) for name, *_ in RESOURCE_SCENARIOS]
    calibration = summary.get(CALIBRATION)
    lowest = min(resource_cells, key=lambda item: item[1]["rps_ratio"])
    rows.append(("Every other resource's list and `/1` vs evhttp-c (c32)", f"≥ {FIXED_ROUTE_BAR:.2f}× baseline req/s each",
                 f"{len(resource_cells)} cells, lowest {lowest[0]} {lowest[1]['rps_ratio']:.2f}× "
                 f"({fmt(lowest[1]['understudy_rps'])} vs {fmt(lowest[1]['baseline_rps'])} req/s); median "
                 f"{median([row['rps_ratio'] for _, row in resource_cells]):.2f}×",
                 verdict(all(row["rps_ratio"] >= FIXED_ROUTE_BAR for _, row in resource_cells))))

    if calibration:
        rows.append(("A/A: the bare server against a second copy of itself (GET /products/1, c32)",
                     "measured: how far a ratio moves when nothing differs",
                     f"median {calibration['rps_ratio']:.2f}×, middle half of the rounds {spread(calibration['rounds'])} "
                     f"({len(calibration['rounds'])} rounds)", "PASS"))

    for peer, results, bar in (("python http.server", python_results, 20), ("mockintosh", mock_results, 100)):
        if not results:
            rows.append((f"{peer} (same bytes, c32)", f"≥ {bar}× slower than Understudy", f"not measured: {mock_problem}",
                         "MISS"))
            continue
        measured, ok = [], True
        for name in ("GET /products/1", "GET /products (default page)"):
            ours = cell(name, 32)["understudy_rps"]
            theirs = results[name]["rps"]
            factor = ours / theirs if theirs else float("inf")
            ok &= factor >= bar
            errors = results[name]["socket_errors"]
            measured.append(f"{name.split(' (')[0]}: {fmt(theirs)} req/s = {factor:,.0f}× slower"
                            + (f" ({errors} wrk socket errors)" if errors else ""))
        rows.append((f"{peer} (same bytes, c32, {PEER_SECONDS} s)", f"≥ {bar}× slower than Understudy",
                     "; ".join(measured), verdict(ok)))

    delay_ok = (delay["non2xx"] == 0 and delay["socket_errors"] == 0 and delay["p99"] <= 216 and delay["rps"] >= 2300)
    rows.append(("500 concurrent `?delay=200` (wrk -c500)", "all succeed, p99 ≤ 216 ms, ≥ 2,300 req/s",
                 f"{delay['requests']:,} requests, {delay['non2xx']} non-2xx, {delay['socket_errors']} socket errors; "
                 f"p50 {delay['p50']:.1f} / p99 {delay['p99']:.1f} ms; {fmt(delay['rps'])} req/s (the run before it, "
                 f"on the fresh server: p99 {delay['cold']['p99']:.1f} ms, {fmt(delay['cold']['rps'])} req/s)",
                 verdict(delay_ok)))

    sse_ok = (sse["delivered"] >= 0.99 * sse["expected"] and sse["misordered"] == 0 and sse["errors"] == 0
              and sse["gap_p99_ms"] <= 115 and sse["cpu_percent"] <= 30)
    rows.append((f"{SSE_STREAMS:,} SSE streams, 1 event / 100 ms, {SSE_SECONDS} s",
                 "all delivered in order, gap p99 ≤ 115 ms, server CPU ≤ 30 % of a core",
                 f"{sse['delivered']:,} / {sse['expected']:,} events, {sse['streaming']} streams, "
                 f"{'order OK' if sse['misordered'] == 0 else str(sse['misordered']) + ' out of order'}, "
                 f"{sse['errors']} errors; gap p50 {sse['gap_p50_ms']:.1f} / p99 {sse['gap_p99_ms']:.1f} / max "
                 f"{sse['gap_max_ms']:.1f} ms; CPU {sse['cpu_percent']:.1f} %; RSS {sse['peak_rss']:.1f} MiB",
                 verdict(sse_ok)))

    if throttled:
        throttled_ok = (throttled["cpu_percent"] <= 2 and throttled["errors"] == 0
                        and abs(throttled["rate_per_connection"] - 16_000) <= 1_600)
        rows.append((f"{throttled['connections']} connections paced at `rate=16k`, {throttled['seconds']:.0f} s",
                     "server CPU ≤ 2 % of a core, each within 10 % of 16 kB/s",
                     f"CPU {throttled['cpu_percent']:.2f} %; {fmt(throttled['rate_per_connection'])} B/s per connection; "
                     f"{throttled['errors']} errors", verdict(throttled_ok)))

    startup_builtin, baseline_startup = other_startups
    rows.append(("Start-up, launch → first 200 (`--fixtures fixtures`)", "≤ 50 ms",
                 f"{startup:.1f} ms median (built-in catalogue, no flag: {startup_builtin:.1f} ms; evhttp-c baseline: "
                 f"{baseline_startup:.1f} ms)", verdict(startup <= 50)))
    first, later = in_process["first_start_ms"], in_process["start_ms_median"]
    rows.append(("In-process start, `UnderstudyServer.start` → first 200 (socket)", "≤ 10 ms",
                 f"first in a process {first:.1f} ms (median of {3 if QUICK else 9} processes; it builds the built-in "
                 "catalogue, once per process); the "
                 f"{in_process['count']} after it: median {later:.2f} ms, max {in_process['start_ms_max']:.2f} ms; "
                 f"stop() {in_process['stop_ms_median']:.2f} ms", verdict(first <= 10 and later <= 10)))
    rows.append((f"UnderstudyClient vs URLSession `data(for:)` + JSONDecoder, {client['requests']:,} sequential "
                 "GET /products/1", "≤ 1.10×",
                 f"{client['ratio']:.2f}× ({client['client_us_per_request']:.0f} vs {client['raw_us_per_request']:.0f} µs "
                 f"per request; per round {', '.join(f'{r:.2f}' for r in client['ratios'])})",
                 verdict(client["ratio"] <= 1.10)))
    idle, load, after = rss
    if room:
        rounds = ", ".join(f"{r:.2f}" for r in room["rounds"])
        rows.append(("`/products/1` with the control room's feed followed (c32)", "≥ 0.95× without",
                     f"{room['ratio']:.2f}× ({rounds}); {fmt(room['rps_followed'])} vs {fmt(room['rps_alone'])} req/s",
                     verdict(room["ratio"] >= 0.95)))
        kept_up = room["viewers_kept"] == 10 and room["lag_p99"] <= 250
        rows.append((f"10 control-room viewers at ~{fmt(room['paced_rps'])} req/s", "lag p99 ≤ 250 ms, or dropped cleanly",
                     f"lag p99 {room['lag_p99']:.0f} ms (p50 {room['lag_p50']:.0f}); {room['viewers_kept']} kept, "
                     f"{room['viewers_dropped']} dropped; {room['events']:,} events, {room['skipped']:,} counted as skipped",
                     verdict(kept_up or room["viewers_dropped"] == 10)))
    if tls:
        rounds = ", ".join(f"{r:.2f}" for r in tls["rounds"])
        ceiling = ", ".join(f"{r:.2f}" for r in tls["baseline_rounds"])
        rows.append((f"Keep-alive `/products/1` over TLS vs plain http (c32, one server, {len(tls['rounds'])} rounds)",
                     "≥ 0.80× plain http",
                     f"{tls['ratio']:.2f}× ({rounds}); {fmt(tls['rps_https'])} vs {fmt(tls['rps_http'])} req/s, "
                     f"server CPU {tls['cpu_https']:.1f} vs {tls['cpu_http']:.1f} µs/req. Ceiling, evhttp-c over "
                     f"bufferevent_openssl with the same certificate: {tls['baseline_ratio']:.2f}× ({ceiling}), "
                     f"CPU {tls['baseline_cpu_https']:.1f} vs {tls['baseline_cpu_http']:.1f} µs/req",
                     verdict(tls["ratio"] >= 0.80)))
        rows.append(("Full TLS handshakes per second (a new connection per request, c8)", "measured",
                     f"{fmt(tls['handshakes_per_s'])} /s, {tls['handshake_errors']} socket errors",
                     verdict(tls["handshakes_per_s"] > 0 and tls["handshake_errors"] == 0)))
        rows.append(("Server memory per idle TLS connection (1,000 idle, handshake done)", "measured",
                     f"{tls['idle_kib_tls']:.1f} KiB (plain: {tls['idle_kib_plain']:.1f} KiB)", verdict(True)))
    largest = max(catalogue_rows, key=lambda row: row["size"]) if catalogue_rows else None
    if largest:
        rss_factor = largest["startup_rss"] / (largest["file_mb"] * 1e6 / 2**20)
        rows.append((f"{largest['size']:,} products ({largest['file_mb']:.0f} MB file): start-up, RSS, uncached search",
                     "start ≤ 1 s, RSS ≤ 3× the file, uncached search ≤ 5 ms CPU",
                     f"start {largest['startup_ms']:,.0f} ms (median of "
                     f"{', '.join(f'{run:,.0f}' for run in largest['startup_runs'])}), RSS {largest['startup_rss']:.0f} MiB = "
                     f"{rss_factor:.2f}× the file, uncached search {largest['unique_cpu'] / 1000:.2f} ms CPU",
                     verdict(largest["startup_ms"] <= 1000 and rss_factor <= 3 and largest["unique_cpu"] <= 5000)))
        index_ok = max(largest["first_search_loop_ms"], largest["first_sort_loop_ms"], largest["sort_again_loop_ms"],
                       largest["first_filter_loop_ms"], largest["filter_again_loop_ms"]) <= 50
        rows.append((f"{largest['size']:,} products: the first search, the first sort and the first filter (each "
                     "builds an index), as loop time", "≤ 50 ms of loop time each",
                     f"first search: loop held {largest['first_search_loop_ms']:.1f} ms (the request itself "
                     f"{largest['first_search_ms']:.0f} ms); first sort (`sortBy=title`): loop held "
                     f"{largest['first_sort_loop_ms']:.1f} ms (itself {largest['first_sort_ms']:.0f} ms); the same sort "
                     f"again, another page: {largest['sort_again_ms']:.1f} ms; first filter of the same items as your "
                     f"own collection (`key=category`): loop held {largest['first_filter_loop_ms']:.1f} ms (itself "
                     f"{largest['first_filter_ms']:.0f} ms), another value of that key "
                     f"{largest['filter_again_ms']:.1f} ms", verdict(index_ok)))
        first = min(catalogue_rows, key=lambda row: row["size"])
        page_ratio = largest["page_cpu"] / first["page_cpu"]
        worst = max(scale_rows, key=lambda row: row["large_cpu"] / row["shipped_cpu"]) if scale_rows else None
        measured = (f"/products: {first['page_cpu']:.0f} µs at {first['size']:,}, {largest['page_cpu']:.0f} µs at "
                    f"{largest['size']:,} ({page_ratio:.2f}×)")
        ok = page_ratio <= 1.15
        if worst:
            worst_ratio = worst["large_cpu"] / worst["shipped_cpu"]
            measured += (f"; the others at {worst['size']:,}: worst /{worst['name']} {worst['shipped_cpu']:.0f} → "
                         f"{worst['large_cpu']:.0f} µs ({worst_ratio:.2f}×)")
            ok &= worst_ratio <= 1.15
        rows.append(("Uncached first page at scale vs shipped size (CPU per request)",
                     "no more than at the shipped size (≤ 1.15×: noise on a shared VM)", measured, verdict(ok)))
    rows.append(("RSS idle", "≤ 20 MiB", f"{idle:.1f} MiB", verdict(idle <= 20)))
    rows.append(("RSS under 256-connection load (/products)", "≤ 30 MiB", f"{load:.1f} MiB peak ({after:.1f} after)",
                 verdict(load <= 30)))
    rows.append((f"RSS with {SSE_STREAMS:,} SSE streams", "≤ 60 MiB", f"{sse['peak_rss']:.1f} MiB peak",
                 verdict(sse["peak_rss"] <= 60)))
    rows += api_rows

    lines = [f"# Benchmarks", "",
             f"- Date: {started_at:%Y-%m-%d %H:%M} UTC",
             f"- Command: `{command}`" + (" (QUICK: 1 round of 1 s cells, smaller catalogues — a smoke run, not figures)" if QUICK else ""),
             f"- Machine: {info['nproc']} vCPU, {info['cpu']}, Linux {info['kernel']}; load average at start "
             f"{' '.join(info['load'])}, at end {' '.join(info['load_end'])}. **Shared**: other engineers build and test "
             "on this VM, so req/s drifts by ±15 % between runs; CPU µs per request from /proc is the steadier figure.",
             f"- Tools: {info['wrk']}; {info['gcc']}; libevent {info['libevent']}; Understudy `.build/release/understudy` "
             "(`swift build -c release --static-swift-stdlib`, as `make release` builds it).",
             f"- Method: wrk `-t1 --latency -H 'Connection: keep-alive'`; against the bare server, {AB_ROUNDS} interleaved "
             f"rounds of {AB_CELL_SECONDS} s cells A/B with the order rotated (the A/A row says why many short rounds), "
             f"median; elsewhere {CELL_SECONDS} s cells. Ratios are medians of the per-round ratios. Server CPU µs per "
             "request = Δ(utime + stime) from `/proc/<pid>/stat` ÷ requests wrk completed. Everything on 127.0.0.1; wrk "
             "shares the 2 vCPUs with the server.",
             "- Baseline **evhttp-c** (`bench/evhttp-baseline.c`): bare evhttp, listener with backlog 1,024, TCP_NODELAY, "
             "256 KiB max single write, bodies by reference; serves byte for byte the status, Content-Type and body "
             "Understudy sent for each route (fetched from Understudy first). Understudy sends more headers "
             "(X-RateLimit-*, ETag, X-Understudy-Fault-Applied), as it must.",
             "", "## Verdicts", "", "| figure | target | measured | verdict |", "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | **{d}** |" for a, b, c, d in rows]
    if spec_rows:
        lines += ["", "## Serving an OpenAPI document (`--spec`, bench/spec.py)", "",
                  "| figure | target | measured | verdict |", "|---|---|---|---|"]
        lines += [f"| {a} | {b} | {c} | **{d}** |" for a, b, c, d in spec_rows]
    if websocket_rows:
        lines += ["", "## WebSockets (bench/websocket_bench.py, against bench/ws-echo-baseline.c)", "",
                  "| figure | target | measured | verdict |", "|---|---|---|---|"]
        lines += [f"| {a} | {b} | {c} | **{d}** |" for a, b, c, d in websocket_rows]

    lines += ["", "## Every A/B cell (medians)", "",
              "| scenario | conns | Understudy req/s | evhttp-c req/s | ratio (middle half of the rounds) | Understudy p50 / p99 ms | "
              "evhttp-c p50 / p99 ms | CPU µs/req Understudy / evhttp-c | CPU ratio | instructions/req Understudy / "
              "evhttp-c |", "|---|---|---|---|---|---|---|---|---|---|"]
    counts = instructions or {}
    for name, *_ in ALL_SCENARIOS:
        for connections in connections_for(name):
            row = cell(name, connections)
            rounds = spread(row["rounds"])
            ours, theirs = counts.get((name, "understudy")), counts.get((name, "evhttp-c"))
            counted = f"{fmt(ours)} / {fmt(theirs)}" if ours and theirs and connections == 32 else "–"
            lines.append(
                f"| {name} | {connections} | {fmt(row['understudy_rps'])} | {fmt(row['baseline_rps'])} | "
                f"{row['rps_ratio']:.2f} ({rounds}) | {row['understudy_p50']:.2f} / {row['understudy_p99']:.2f} | "
                f"{row['baseline_p50']:.2f} / {row['baseline_p99']:.2f} | {row['understudy_cpu_us']:.1f} / "
                f"{row['baseline_cpu_us']:.1f} | {row['cpu_ratio']:.2f} | {counted} |")
    if CALIBRATION in summary:
        row = summary[CALIBRATION]
        lines.append(
            f"| {CALIBRATION[0]} | {CALIBRATION[1]} | {fmt(row['understudy_rps'])} | {fmt(row['baseline_rps'])} | "
            f"{row['rps_ratio']:.2f} ({spread(row['rounds'])}) | {row['understudy_p50']:.2f} / {row['understudy_p99']:.2f} | "
            f"{row['baseline_p50']:.2f} / {row['baseline_p99']:.2f} | {row['understudy_cpu_us']:.1f} / "
            f"{row['baseline_cpu_us']:.1f} | {row['cpu_ratio']:.2f} | – |")
    if counts:
        lines += ["", "Instructions per request: callgrind on the event loop while wrk `-t1 -c4` drives the route "
                  "(`bench/instructions.sh`, after three warm-up requests), on the release build linked against the "
                  "Swift runtime's shared libraries; steady where req/s is not, on a shared machine."]

    lines += ["", "## Catalogue size", "",
              "Generated in DummyJSON's format from the 194 built-in products (ids renumbered), loaded with `--fixtures`. "
              "Search is cached per target, so the `search` column is the repeated query; `uncached search` gives every "
              "request its own target (`&n=<counter>`), so each one filters, sorts and encodes the catalogue again. "
              f"Each figure is one wrk run (c32, {max(1, CELL_SECONDS // 2)} s); no target is set for these. The first "
              "search and the first sort of a fresh server each build an index (off the loop); the loop time is the "
              "slowest reply a probe got (`/products/1`, again and again on a kept-alive connection) meanwhile; "
              "`that sort again` is a sort by the same field with a target of its own (the order kept). The first "
              "filter is of the same items loaded as your own collection (`goods`, on a server of its own), by "
              "`key=category`; `that filter again` asks for another value of the same key (its index kept).", "",
              "| products | file MB | start-up ms | RSS MiB after start | RSS MiB after the runs | /products/1 req/s | "
              "search req/s | uncached search req/s (p50 ms, CPU µs/req) | uncached first page CPU µs/req | "
              "first search ms: itself / loop held | first sort ms: itself / loop held | that sort again ms | "
              "first filter ms: itself / loop held | that filter again ms |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in catalogue_rows:
        lines.append(f"| {row['size']:,} | {row['file_mb']:.1f} | {row['startup_ms']:.1f} | {row['startup_rss']:.1f} | "
                     f"{row['rss_after']:.1f} | {fmt(row['one_rps'])} | {fmt(row['search_rps'])} | "
                     f"{fmt(row['unique_rps'])} ({row['unique_p50']:.2f} ms, {fmt(row['unique_cpu'])} µs) | "
                     f"{row['page_cpu']:.1f} | {row['first_search_ms']:.0f} / {row['first_search_loop_ms']:.1f} | "
                     f"{row['first_sort_ms']:.0f} / {row['first_sort_loop_ms']:.1f} | {row['sort_again_ms']:.1f} | "
                     f"{row['first_filter_ms']:.0f} / {row['first_filter_loop_ms']:.1f} | {row['filter_again_ms']:.1f} |")
    if scale_rows:
        lines += ["", "## Resources at scale", "",
                  "Each resource's first page with a target of its own per request (`?n=<counter>`, so the reply cache "
                  "never answers): at its shipped size, and with the shipped items repeated to "
                  f"{scale_rows[0]['size']:,} (ids renumbered) and loaded with `--fixtures`. One wrk run each (c32, "
                  f"{max(1, CELL_SECONDS // 2)} s).", "",
                  "| resource | shipped items | CPU µs/req shipped | CPU µs/req at scale | ratio |", "|---|---|---|---|---|"]
        for row in scale_rows:
            lines.append(f"| /{row['name']} | {row['shipped']:,} | {row['shipped_cpu']:.1f} | {row['large_cpu']:.1f} | "
                         f"{row['large_cpu'] / row['shipped_cpu']:.2f} |")
    lines += api_lines
    lines += ["", "In-process figures come from `Sources/UnderstudyBench` (release build): the client row alternates "
              "which side runs first in each round, on sessions with the same configuration, against one in-process "
              "server; the ratio is the median of the per-round ratios.", ""]
    notes = os.path.join(ROOT, "bench", "NOTES.md")
    if os.path.exists(notes):
        lines += [open(notes).read().rstrip(), ""]
    text = "\n".join(lines)
    return text, rows


def ab_servers(directory):
    """Understudy, the map of its bodies, the bare server serving them (checked byte for byte) and the A/A copy."""
    understudy = Server("understudy", [UNDERSTUDY, "--port", "0", "--quiet"])
    log("bodies from Understudy:")
    map_path = fetch_bodies(understudy, directory)
    baseline = Server("evhttp-c", [BASELINE, map_path])
    second_baseline = Server("evhttp-c (A/A)", [BASELINE, map_path])
    for index, (name, target, headers, _, _) in enumerate(ALL_SCENARIOS):
        _, _, body = http_get(baseline.port, baseline_target(target, headers))
        expected = open(os.path.join(directory, f"body-{index}.bin"), "rb").read()
        if body != expected:
            sys.exit(f"bench: the baseline's body for {name} differs from Understudy's")
    return understudy, map_path, baseline, second_baseline


def fixed_route_lines(directory):
    """The fixed routes' A/B alone (`--fixed-only`): each cell's median ratio, its middle half and the CPU ratio."""
    understudy, _, baseline, second_baseline = ab_servers(directory)
    summary = summarise(ab_rounds(understudy, baseline, second_baseline))
    lines = [f"{AB_ROUNDS} interleaved rounds of {AB_CELL_SECONDS} s cells", "",
             "| scenario | conns | Understudy req/s | evhttp-c req/s | ratio (middle half) | CPU ratio | bar |",
             "|---|---|---|---|---|---|---|"]
    for (name, connections), row in summary.items():
        bar = "–" if (name, connections) == CALIBRATION else verdict(row["rps_ratio"] >= FIXED_ROUTE_BAR)
        lines.append(f"| {name} | {connections} | {fmt(row['understudy_rps'])} | {fmt(row['baseline_rps'])} | "
                     f"{row['rps_ratio']:.2f} ({spread(row['rounds'])}) | {row['cpu_ratio']:.2f} | {bar} |")
    return lines


def spec_helpers():
    """What bench/spec.py uses of this script."""
    return types.SimpleNamespace(log=log, free_port=free_port, http_status=http_status, stop_process=stop_process,
                                 wrk=wrk, wrk_script=wrk_script, Server=Server, verdict=verdict, median=median)


SHARED_OPENAPI = os.environ.get("UNDERSTUDY_SHARED", os.path.join(os.path.dirname(ROOT), "shared")) + "/conformance/openapi"


def websocket_figures():
    """bench/websocket_bench.py's results and rows."""
    import websocket_bench
    return websocket_bench.figures(spec_helpers(), UNDERSTUDY, WS_BASELINE, WS_LOAD, QUICK)


def main():
    if args.websocket_only:
        try:
            _, rows = websocket_figures()
            print("\n".join(f"| {a} | {b} | {c} | **{d}** |" for a, b, c, d in rows))
        finally:
            stop_all()
        return
    if args.spec_only:
        import spec
        try:
            _, rows = spec.figures(spec_helpers(), UNDERSTUDY, SHARED_OPENAPI, QUICK)
            print("\n".join(f"| {a} | {b} | {c} | **{d}** |" for a, b, c, d in rows))
        finally:
            stop_all()
        return
    if args.tls_only:
        try:
            log("HTTPS:")
            print(json.dumps(tls_figures(), indent=1))
        finally:
            stop_all()
        return
    if args.control_room_only:
        os.makedirs(BUILD, exist_ok=True)
        try:
            log("control room:")
            print(json.dumps(control_room(), indent=1))
        finally:
            stop_all()
        return
    if args.api_only:
        os.makedirs(BUILD, exist_ok=True)
        directory = tempfile.mkdtemp(prefix="understudy-bench-")
        try:
            rows, lines = api_report(in_front_of_an_api(directory))
            print("\n".join(f"| {a} | {b} | {c} | **{d}** |" for a, b, c, d in rows))
            print("\n".join(lines))
        finally:
            stop_all()
            shutil.rmtree(directory, ignore_errors=True)
        return
    if args.fixed_only:
        directory = tempfile.mkdtemp(prefix="understudy-bench-")
        try:
            print("\n".join(fixed_route_lines(directory)))
        finally:
            stop_all()
            shutil.rmtree(directory, ignore_errors=True)
        return
    for path in (UNDERSTUDY, SWIFT_BENCH, BASELINE, FANOUT, WS_BASELINE, WS_LOAD):
        if not os.path.exists(path):
            sys.exit(f"bench: {path} is missing; run `make bench`")
    started_at = datetime.datetime.now(datetime.timezone.utc)
    command = "make bench QUICK=1" if QUICK else "make bench"
    info = machine()
    info["wrk"] = tool_version(["wrk", "-v"]) or "wrk"
    info["gcc"] = tool_version(["gcc", "--version"])
    info["libevent"] = subprocess.run(["pkg-config", "--modversion", "libevent"], capture_output=True,
                                      text=True).stdout.strip()
    directory = tempfile.mkdtemp(prefix="understudy-bench-")
    try:
        log(f"bench: {'quick' if QUICK else 'full'} run; scratch in {directory}")
        understudy, map_path, baseline, second_baseline = ab_servers(directory)
        cells = ab_rounds(understudy, baseline, second_baseline)
        understudy.stop()
        baseline.stop()
        second_baseline.stop()
        summary = summarise(cells)
        log("instructions per request (callgrind):")
        instructions = instruction_counts(directory)

        log("python http.server:")
        python_results = python_peer(map_path)
        log("mockintosh:")
        mock_results, mock_problem = mockintosh_peer(map_path, directory)
        if mock_problem:
            log(f"  {mock_problem}")
        log("500 delayed requests:")
        delay = delayed_burst()
        log(f"  {delay['rps']:,.0f} req/s, p99 {delay['p99']:.1f} ms, non-2xx {delay['non2xx']}")
        log(f"{SSE_STREAMS} SSE streams for {SSE_SECONDS} s:")
        sse = sse_fanout()
        log(f"  {sse}")
        log(f"{THROTTLED_CONNECTIONS} throttled connections:")
        throttled = throttled_connections()
        log(f"  {throttled}")
        log("start-up:")
        runs = 3 if QUICK else 9
        startup = median([startup_ms(["--fixtures", os.path.join(ROOT, "fixtures")])[0] for _ in range(runs)])
        startup_builtin = median([startup_ms([])[0] for _ in range(runs)])
        baseline_startup = median([baseline_startup_ms(map_path) for _ in range(runs)])
        log(f"  {startup:.1f} ms with --fixtures, {startup_builtin:.1f} ms built-in (baseline {baseline_startup:.1f} ms)")
        log("in-process start and client overhead:")
        in_process = swift_bench("start", "--count", "20" if QUICK else "100")
        # The first start of a process (which builds the built-in catalogue) is one sample per process: take the
        # median over several processes.
        in_process["first_start_ms"] = median([swift_bench("start", "--count", "1")["first_start_ms"]
                                               for _ in range(3 if QUICK else 9)])
        client = swift_bench("client", "--requests", "500" if QUICK else "2000", "--rounds", "3" if QUICK else "5")
        log(f"  start {in_process}; client {client}")
        log("RSS:")
        rss = rss_figures()
        log(f"  idle {rss[0]:.1f}, load peak {rss[1]:.1f}, after {rss[2]:.1f} MiB")
        log("catalogues:")
        catalogue_rows = catalogues(directory)
        log("resources at 10,000 items:")
        scale_rows = resource_scale(directory)
        log("control room:")
        room = control_room()
        log(f"  {room}")
        log("HTTPS:")
        tls = tls_figures()
        api = in_front_of_an_api(directory)
        import spec
        spec_results, spec_rows = spec.figures(spec_helpers(), UNDERSTUDY, SHARED_OPENAPI, QUICK)
        websocket_results, websocket_rows = websocket_figures()
        info["load_end"] = open("/proc/loadavg").read().split()[:3]
        text, rows = report(info, summary, python_results, mock_results, mock_problem, delay, sse, startup,
                            (startup_builtin, baseline_startup), rss, in_process, client, catalogue_rows, started_at,
                            command, room, scale_rows, tls, throttled, api, instructions, spec_rows, websocket_rows)
        with open(OUT, "w") as out:
            out.write(text)
        with open(os.path.join(BUILD, "results.json"), "w") as out:
            json.dump({"summary": {f"{k[0]} c{k[1]}": v for k, v in summary.items()},
                       "instructions": {f"{k[0]} {k[1]}": v for k, v in instructions.items()}, "delay": delay, "sse": sse,
                       "startup_ms": startup, "rss": rss, "in_process": in_process, "client": client,
                       "catalogues": catalogue_rows, "resource_scale": scale_rows,
                       "api": {"proxy": api["proxy"], "replay": {f"{k[0]} c{k[1]}": v for k, v in api["replay"].items()},
                               "record": api["record"], "load": api["load"]}, "websocket": websocket_results}, out,
                      indent=1, default=str)
        print(text)
        log(f"bench: wrote {OUT}")
        misses = [row[0] for row in rows if row[3] != "PASS"]
        if misses:
            log("bench: missed: " + "; ".join(misses))
    finally:
        stop_all()
        shutil.rmtree(directory, ignore_errors=True)


def baseline_startup_ms(map_path):
    """The same launch → first 200 for the C baseline (it picks its own port and prints it)."""
    started = time.perf_counter()
    server = Server("evhttp-c", [BASELINE, map_path])
    try:
        while time.perf_counter() - started < 10:
            if http_status(server.port, "/products/1") == 200:
                return (time.perf_counter() - started) * 1e3
            time.sleep(0.0005)
        return float("nan")
    finally:
        server.stop()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        stop_all()
        sys.exit(130)

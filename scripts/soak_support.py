"""The processes a soak starts and what it reads off them (scripts/stress.py, scripts/websocket-soak.py): children
in their own process group that die with the script, the server's first line, its descriptors and its RSS."""
import ctypes, os, re, select, signal, subprocess, time

def child_setup():
    """In the child before exec: its own process group (Ctrl-C is ours to handle), and SIGKILL if we die."""
    os.setpgid(0, 0)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG; Linux only
    except (OSError, AttributeError):
        pass


def spawn(argv, **kwargs):
    return subprocess.Popen(argv, preexec_fn=child_setup, **kwargs)


def reap(process, first_signal=signal.SIGTERM, timeout=15.0):
    """Stops `process` if it still runs (first_signal, then SIGKILL after `timeout`); returns its exit status,
    and whether it stopped in time on its own."""
    if process is None:
        return None, True
    if process.poll() is None:
        try:
            process.send_signal(first_signal)
        except ProcessLookupError:
            pass
    try:
        return process.wait(timeout=timeout), True
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait(), False


def read_url(server, timeout):
    """The server's first stdout line, or None if it exits or stays silent for `timeout` seconds."""
    fd, line, deadline = server.stdout.fileno(), b"", time.monotonic() + timeout
    while not line.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            return None
        chunk = os.read(fd, 1)
        if not chunk:
            return None
        line += chunk
    return line.decode(errors="replace").strip()


def drain(stream):
    """Keeps reading the server's stdout so that it can never block on a full pipe."""
    while os.read(stream.fileno(), 65536):
        pass


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            match = re.search(r"VmRSS:\s+(\d+)", status.read())
        return int(match.group(1)) if match else None
    except OSError:
        return None


def descriptors(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None

#!/usr/bin/env python3
"""`timeout [--kill-after=N] SECONDS COMMAND...` for systems without GNU coreutils' timeout (macOS): runs COMMAND,
sends it SIGTERM after SECONDS (and SIGKILL N seconds later), and exits 124 when it timed out, else with its status.
contract.sh and browser.sh use it only where `timeout` is missing."""
import signal
import subprocess
import sys


def main(argv):
    kill_after = None
    while argv and argv[0].startswith("--kill-after"):
        flag = argv.pop(0)
        kill_after = float(flag.split("=", 1)[1] if "=" in flag else argv.pop(0))
    if len(argv) < 2:
        print("usage: timeout.py [--kill-after=N] SECONDS COMMAND...", file=sys.stderr)
        return 125
    seconds, command = float(argv[0]), argv[1:]
    child = subprocess.Popen(command)
    try:
        return child.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        return 124


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

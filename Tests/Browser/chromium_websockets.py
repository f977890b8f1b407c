"""Chromium's own WebSocket against /ws/echo and /ws/feed, over ws:// and wss://, and through socket faults (#39).

    Tests/Browser/chromium_websockets.py --server-bin .build/debug/understudy

A browser is the WebSocket client whose bytes Understudy did not write: it offers permessage-deflate (which the server
declines), masks every frame, and checks the accept key, the subprotocol and the closing handshake itself. Each check
opens a socket from a page of the server's own origin, sends text, binary and a 70,000-byte message, reads each back,
and closes with 4000; over wss:// the browser trusts the local CA through its NSS database, as
https_control_room.py does. A browser cannot set headers on a WebSocket, so the faults go in the URL (`_fault=`), as
a web app's test would put them: the feed closes with the code and reason asked after two updates, a reset leaves the
browser with 1006, and a frame with a reserved bit set makes the browser fail the socket itself. Prints `browser: N passed, M failed` and exits non-zero on any failure.
"""
import argparse
import os
import shutil
import sys
import tempfile

os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a driver or a browser.

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_page import Checks, Understudy, expect, run_script  # noqa: E402
from https_control_room import browser, start_server, trusting_home  # noqa: E402

ECHO = """
const socket = new WebSocket(arguments[0], ["chat.v2", "chat.v1"]);
socket.binaryType = "arraybuffer";
const got = [];
socket.onopen = () => {
  socket.send("hello, understudy");
  socket.send(new Uint8Array([1, 2, 3, 250]).buffer);
  socket.send("x".repeat(70000));
};
socket.onmessage = (event) => {
  got.push(typeof event.data === "string"
    ? (event.data.length > 100 ? "text of " + event.data.length : event.data)
    : Array.from(new Uint8Array(event.data)).join(","));
  if (got.length === 3) socket.close(4000, "done");
};
socket.onclose = (event) => done({got: got, code: event.code, reason: event.reason, clean: event.wasClean,
                                  protocol: socket.protocol, extensions: socket.extensions});
"""


def echoes(driver, page, socket_url):
    driver.get(page)
    result = run_script(driver, ECHO.replace("arguments[0]", repr(socket_url)))
    expect(result["got"] == ["hello, understudy", "1,2,3,250", "text of 70000"], "echoed %r" % result["got"])
    expect(result["code"] == 4000 and result["reason"] == "done" and result["clean"],
           "closed with %r %r, clean %r" % (result["code"], result["reason"], result["clean"]))
    expect(result["protocol"] == "chat.v2", "subprotocol %r" % result["protocol"])
    expect(result["extensions"] == "", "extensions %r (permessage-deflate must be declined)" % result["extensions"])


FEED = """
const socket = new WebSocket(arguments[0]);
const got = [];
socket.onmessage = (event) => got.push(JSON.parse(event.data).id !== undefined);
socket.onclose = (event) => done({got: got, code: event.code, reason: event.reason, clean: event.wasClean});
socket.onopen = () => { if (arguments[1]) socket.send("trigger"); };
"""


def closes(driver, page, socket_url, send, messages, code, reason, clean):
    driver.get(page)
    script = FEED.replace("arguments[0]", repr(socket_url)).replace("arguments[1]", "true" if send else "false")
    result = run_script(driver, script)
    expect(len(result["got"]) == messages and all(result["got"]), "messages %r" % result["got"])
    expect(result["code"] == code and result["reason"] == reason and result["clean"] == clean,
           "closed with %r %r, clean %r" % (result["code"], result["reason"], result["clean"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server-bin", default=".build/debug/understudy")
    args = parser.parse_args()
    checks = Checks()
    work = tempfile.mkdtemp(prefix="understudy-websockets-")
    plain = Understudy(args.server_bin)
    secure, secure_port = start_server(args.server_bin, os.path.join(work, "tls"))
    drivers = []
    try:
        os.makedirs(os.path.join(work, "plain"))
        driver = browser(os.path.join(work, "plain"))
        drivers.append(driver)
        page = "http://127.0.0.1:%d/products/1" % plain.port

        checks.run("ws:// echoes text, binary and a 70,000-byte message, then closes cleanly",
                   lambda: echoes(driver, page, "ws://127.0.0.1:%d/ws/echo" % plain.port))

        def a_plain_request_is_told_to_upgrade():
            driver.get(page)
            status = run_script(driver, "fetch('/ws/echo').then(r => done(r.status), e => done(String(e)));")
            expect(status == 426, "GET /ws/echo without an upgrade: %r" % status)

        checks.run("a plain GET of /ws/echo gets 426", a_plain_request_is_told_to_upgrade)

        base = "ws://127.0.0.1:%d" % plain.port
        checks.run("/ws/feed sends its updates, then closes with 1000 after count",
                   lambda: closes(driver, page, base + "/ws/feed?interval=20&count=3", False, 3, 1000,
                                  "the feed is complete", True))
        checks.run("drop-after=2; close=4001 closes cleanly with that code and reason after two updates",
                   lambda: closes(driver, page, base + "/ws/feed?interval=20&_fault=drop-after%3D2%3B%20close%3D4001"
                                  "%3B%20message%3Dkicked", False, 2, 4001, "kicked", True))
        checks.run("reset-after=1 leaves the browser with 1006, not clean",
                   lambda: closes(driver, page, base + "/ws/feed?interval=20&_fault=reset-after%3D1", False, 1, 1006,
                                  "", False))
        checks.run("corrupt=rsv makes the browser fail the socket (1006) before the message is delivered",
                   lambda: closes(driver, page, base + "/ws/echo?_fault=corrupt%3Drsv", True, 0, 1006, "", False))

        trusted = browser(trusting_home(work, os.path.join(work, "tls", "understudy-ca.pem")))
        drivers.append(trusted)
        checks.run("wss:// echoes the same over TLS",
                   lambda: echoes(trusted, "https://localhost:%d/products/1" % secure_port,
                                  "wss://localhost:%d/ws/echo" % secure_port))
    finally:
        for driver in drivers:
            driver.quit()
        plain.stop()
        secure.terminate()
        secure.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    return checks.report()


if __name__ == "__main__":
    sys.exit(main())

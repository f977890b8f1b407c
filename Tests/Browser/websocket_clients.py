"""Python's websockets and Node's ws against every WebSocket endpoint and through the socket faults (issue #39).

    Tests/Browser/websocket_clients.py --server-bin .build/debug/understudy

Two clients nobody here wrote, each with its own framing and its own idea of a broken server: the `websockets`
library (asyncio, pinned in scripts/browser-requirements.txt) and Debian's node-ws, run by Debian's node. Each
check starts from the documented behaviour and asserts what the client itself reports: the messages, the close
code and reason it read, a close with no frame (1006), the protocol error it failed the socket with, a refused
upgrade's status. Both also talk to a socket `--replay` plays back from fixtures/har/chrome.har, imported with
`understudy import`. Prints `browser: N passed, M failed` and exits non-zero on any failure.
"""
import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_page import Checks, Understudy, expect  # noqa: E402

import websockets  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

FAULT = "X-Understudy-Fault"
CHROME_HAR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                          "fixtures", "har", "chrome.har")


async def closed_after(url, headers=None, send=None):
    """Reads messages until the socket closes: (messages, code received or None, reason, code the client sent)."""
    messages = []
    async with websockets.connect(url, additional_headers=headers or {}, open_timeout=5) as socket:
        if send is not None:
            await socket.send(send)
        try:
            while True:
                messages.append(await asyncio.wait_for(socket.recv(), 5))
        except ConnectionClosed as closed:
            received = closed.rcvd.code if closed.rcvd else None
            reason = closed.rcvd.reason if closed.rcvd else ""
            sent = closed.sent.code if closed.sent else None
            return messages, received, reason, sent


def python_checks(checks, base):
    def run(coroutine):
        return asyncio.run(coroutine)

    async def echo():
        async with websockets.connect(base + "/ws/echo", subprotocols=["chat.v1"]) as socket:
            await socket.send("héllo")
            await socket.send(bytes([0, 1, 2, 255]))
            expect(await socket.recv() == "héllo", "text echo")
            expect(await socket.recv() == bytes([0, 1, 2, 255]), "binary echo")
            expect(socket.subprotocol == "chat.v1", "subprotocol %r" % socket.subprotocol)
            pong = await socket.ping(b"are you there")
            await asyncio.wait_for(pong, 5)

    checks.run("python websockets: /ws/echo echoes text and binary, answers a ping", lambda: run(echo()))

    def feed():
        messages, code, reason, _ = run(closed_after(base + "/ws/feed?interval=10&count=3"))
        expect(len(messages) == 3 and all("price" in json.loads(m) for m in messages), "updates %r" % messages)
        expect(code == 1000 and reason == "the feed is complete", "closed %r %r" % (code, reason))

    checks.run("python websockets: /ws/feed sends count updates, then 1000", feed)

    def chat():
        async def talk():
            async with websockets.connect(base + "/ws/chat?room=py") as alice, \
                       websockets.connect(base + "/ws/chat?room=py") as bob:
                # Both are open on the server once each has had its 101; the message goes to bob only.
                await alice.send("ship it")
                expect(await asyncio.wait_for(bob.recv(), 5) == "ship it", "bob heard alice")
                try:
                    got = await asyncio.wait_for(alice.recv(), 0.5)
                    expect(False, "alice heard herself: %r" % got)
                except asyncio.TimeoutError:
                    pass
        run(talk())

    checks.run("python websockets: /ws/chat reaches the room's other socket only", chat)

    def dropped_with_code():
        messages, code, reason, _ = run(closed_after(
            base + "/ws/feed?interval=10", {FAULT: "drop-after=2; close=1011; message=database down"}))
        expect(len(messages) == 2, "messages %r" % messages)
        expect(code == 1011 and reason == "database down", "closed %r %r" % (code, reason))

    checks.run("python websockets: drop-after=2; close=1011 closes after two messages with 1011", dropped_with_code)

    def reset():
        messages, code, _, _ = run(closed_after(base + "/ws/feed?interval=10", {FAULT: "reset-after=1"}))
        expect(len(messages) == 1 and code is None, "messages %r, close frame %r (none expected)" % (messages, code))

    checks.run("python websockets: reset-after=1 ends with no close frame (1006)", reset)

    def invalid_utf8():
        _, _, _, sent = run(closed_after(base + "/ws/echo", {FAULT: "corrupt=utf8"}, send="fine"))
        expect(sent == 1007, "the client closed with %r, expected 1007 (invalid UTF-8)" % sent)

    checks.run("python websockets: corrupt=utf8 makes the client fail the socket with 1007", invalid_utf8)

    def masked():
        _, _, _, sent = run(closed_after(base + "/ws/echo", {FAULT: "corrupt=mask"}, send="fine"))
        expect(sent == 1002, "the client closed with %r, expected 1002 (a masked server frame)" % sent)

    checks.run("python websockets: corrupt=mask makes the client fail the socket with 1002", masked)

    def stalled():
        async def ping_unanswered():
            async with websockets.connect(base + "/ws/echo", additional_headers={FAULT: "stall-after=0"},
                                          ping_interval=None) as socket:
                pong = await socket.ping()
                try:
                    await asyncio.wait_for(pong, 1)
                    expect(False, "a stalled socket answered a ping")
                except asyncio.TimeoutError:
                    pass
        run(ping_unanswered())

    checks.run("python websockets: stall-after=0 leaves a ping unanswered", stalled)

    def refused():
        async def connect():
            try:
                async with websockets.connect(base + "/ws/echo",
                                              additional_headers={FAULT: "status=503; retry-after=2"}):
                    expect(False, "the upgrade was accepted")
            except InvalidStatus as error:
                expect(error.response.status_code == 503, "status %r" % error.response.status_code)
                expect(error.response.headers.get("Retry-After") == "2", "Retry-After %r" %
                       error.response.headers.get("Retry-After"))
        run(connect())

    checks.run("python websockets: status=503; retry-after=2 refuses the upgrade", refused)


def replay_checks(checks, base, script):
    """The WebSocket of fixtures/har/chrome.har, replayed: the server's first message, then the answers to the
    client's subscription, in the recorded order; a socket fault acts on the replayed messages."""
    async def python_replay():
        async with websockets.connect(base + "/api/live", open_timeout=5) as socket:
            expect(await asyncio.wait_for(socket.recv(), 5) == '{"hello":true}', "first message")
            await socket.send('{"subscribe":"prices"}')
            expect(await asyncio.wait_for(socket.recv(), 5) == '{"id":1,"price":9.99}', "the recorded answer")
            expect(await asyncio.wait_for(socket.recv(), 5) == bytes([0, 1, 2, 255]), "the recorded binary message")

    checks.run("python websockets: a replayed Chrome HAR socket answers in the recorded order",
               lambda: asyncio.run(python_replay()))

    def node_replay():
        result = run_node(script, base + "/api/live", "drop-after=2; close=4002; message=replay over",
                      send='{"subscribe":"prices"}')
        expect(result["messages"] == ['{"hello":true}', '{"id":1,"price":9.99}'], "messages %r" % result["messages"])
        expect(result.get("code") == 4002 and result.get("reason") == "replay over", "closed %r" % result)

    checks.run("node ws: a replayed socket's drop-after=2; close=4002 closes after two recorded messages", node_replay)


def relay_checks(checks, base, script, proxy, recording):
    """Through `--upstream` (a second Understudy in front of the first, recording): the upstream's echo and its
    subprotocol, a socket fault acting on the upstream's feed, and the conversation in the recording afterwards."""
    async def python_relayed():
        async with websockets.connect(base + "/ws/echo", subprotocols=["chat.v1"], open_timeout=5) as socket:
            expect(socket.subprotocol == "chat.v1", "subprotocol %r" % socket.subprotocol)
            await socket.send("relayed")
            expect(await asyncio.wait_for(socket.recv(), 5) == "relayed", "the upstream's echo")
            pong = await socket.ping(b"hop")
            await asyncio.wait_for(pong, 5)

    checks.run("python websockets: a socket relayed by --upstream echoes through it",
               lambda: asyncio.run(python_relayed()))

    def node_relayed():
        result = run_node(script, base + "/ws/feed?interval=10", "drop-after=2; close=4001; message=relayed kick")
        expect(len(result["messages"]) == 2, "messages %r" % result["messages"])
        expect(result.get("code") == 4001 and result.get("reason") == "relayed kick", "closed %r" % result)

    checks.run("node ws: drop-after=2; close=4001 acts on a relayed feed", node_relayed)

    def recorded():
        proxy.stop()
        files = [os.path.join(folder, name) for folder, _, names in os.walk(recording) for name in names]
        echo = [path for path in files if path.endswith(os.path.join("ws", "echo.json"))]
        expect(len(echo) == 1, "files %r" % files)
        with open(echo[0]) as f:
            answer = json.load(f)["responses"][0]
        expect(answer["status"] == 101, "status %r" % answer["status"])
        said = [(message["from"], message.get("text")) for message in answer["messages"]]
        expect(said == [("client", "relayed"), ("server", "relayed")], "messages %r" % said)

    checks.run("--record keeps a relayed socket's conversation", recorded)


NODE = r"""
const WebSocket = require("ws");
const [url, fault, send] = process.argv.slice(2);
const headers = fault ? {"X-Understudy-Fault": fault} : {};
const socket = new WebSocket(url, {headers});
const result = {messages: [], errors: []};
socket.on("open", () => { if (send) socket.send(send); });
socket.on("message", (data) => result.messages.push(data.toString()));
socket.on("error", (error) => result.errors.push(String(error.message)));
socket.on("unexpected-response", (request, response) => {
  result.status = response.statusCode;
  result.retryAfter = response.headers["retry-after"];
  console.log(JSON.stringify(result));
  process.exit(0);
});
socket.on("close", (code, reason) => {
  result.code = code;
  result.reason = reason.toString();
  console.log(JSON.stringify(result));
});
setTimeout(() => { console.log(JSON.stringify(Object.assign(result, {timedOut: true}))); process.exit(0); }, 8000);
"""


def run_node(script, url, fault="", send=""):
    """What Node's ws reported of one socket (NODE): its messages, errors, close code and reason, or refusal."""
    done = subprocess.run(["node", script, url, fault, send], capture_output=True, text=True, timeout=20,
                          env=dict(os.environ, NODE_PATH="/usr/share/nodejs:/usr/lib/nodejs"))
    expect(done.returncode == 0, "node exited %d: %s" % (done.returncode, done.stderr[-400:]))
    return json.loads(done.stdout.strip().splitlines()[-1])


def node_checks(checks, base, script):
    def node(url, fault="", send=""):
        return run_node(script, url, fault, send)

    def echo():
        result = node(base + "/ws/echo?_fault=close-after%3D300ms", send="from node")
        expect(result["messages"] == ["from node"], "messages %r" % result["messages"])
        expect(result.get("code") == 1000, "closed %r" % result.get("code"))

    checks.run("node ws: /ws/echo echoes, close-after=300ms closes with 1000", echo)

    def dropped_with_code():
        result = node(base + "/ws/feed?interval=10", "drop-after=2; close=4001; message=kicked")
        expect(len(result["messages"]) == 2, "messages %r" % result["messages"])
        expect(result.get("code") == 4001 and result.get("reason") == "kicked", "closed %r" % result)

    checks.run("node ws: drop-after=2; close=4001 closes after two updates with 4001", dropped_with_code)

    def reserved_bit():
        result = node(base + "/ws/echo", "corrupt=rsv", send="fine")
        expect(result["messages"] == [], "messages %r" % result["messages"])
        expect(any("RSV1" in error for error in result["errors"]), "errors %r" % result["errors"])
        expect(result.get("code") in (1002, 1006), "closed %r" % result.get("code"))

    checks.run("node ws: corrupt=rsv is an invalid frame to ws", reserved_bit)

    def split():
        result = node(base + "/ws/echo?_fault=chunk%3D3%3B%20duplicate%3D1%3B%20close-after%3D300ms",
                      send="fragmented message")
        expect(result["messages"] == ["fragmented message"] * 2, "messages %r" % result["messages"])

    checks.run("node ws: chunk=3; duplicate=1 reassembles the fragments, twice", split)

    def refused():
        result = node(base + "/ws/echo", "status=503; retry-after=2")
        expect(result.get("status") == 503 and result.get("retryAfter") == "2", "refusal %r" % result)

    checks.run("node ws: status=503; retry-after=2 refuses the upgrade", refused)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server-bin", default=".build/debug/understudy")
    args = parser.parse_args()
    checks = Checks()
    work = tempfile.mkdtemp(prefix="understudy-ws-clients-")
    server = Understudy(args.server_bin)
    try:
        base = "ws://127.0.0.1:%d" % server.port
        python_checks(checks, base)
        script = os.path.join(work, "client.js")
        with open(script, "w") as f:
            f.write(NODE)
        node_checks(checks, base, script)
        relayed_into = os.path.join(work, "relayed")
        proxy = Understudy(args.server_bin, ["--upstream", server.url, "--record", relayed_into])
        try:
            relay_checks(checks, "ws://127.0.0.1:%d" % proxy.port, script, proxy, relayed_into)
        finally:
            proxy.stop()
        recording = os.path.join(work, "replay")
        subprocess.run([args.server_bin, "import", CHROME_HAR, "--to", recording], check=True, capture_output=True)
        replayed = Understudy(args.server_bin, ["--replay", recording])
        try:
            replay_checks(checks, "ws://127.0.0.1:%d" % replayed.port, script)
        finally:
            replayed.stop()
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return checks.report()


if __name__ == "__main__":
    sys.exit(main())

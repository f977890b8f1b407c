"""A hostile web page in headless Chromium tries to steer a developer's Understudy, and fails (issue #15).

    Tests/Browser/hostile_page.py --server-bin .build/debug/understudy [--screenshot .build/browser/hostile-page.png]

Starts `understudy --port 0` (its request log on stderr is read to see what reached it and what it answered) and a
page server on another origin (http://localhost:OTHER, another site than http://127.0.0.1:PORT). From that page the
browser tries what a malicious site could: a form post and its script twin (urlencoded JSON, which needs no
preflight) to /__understudy/offline, a fetch of the journal, a JSON fetch that adds a rule, and a DELETE of the rules.
Each must fail in the browser, be answered 403 (or never sent after a refused preflight), and leave the server as it
was, as the admin API shows afterwards. Then DNS rebinding: Chromium resolves evil.test to 127.0.0.1
(--host-resolver-rules), loads a page from http://evil.test:PORT and fetches the journal same-origin; the Host check
refuses it. Last, a page on the server's own origin adds and lists rules with fetch, which must work.

Chromium and chromedriver are Debian's (`chromium`, `chromium-driver`); Selenium is given the driver's path and told
to stay offline, so nothing is downloaded. A missing browser is a failure, never a skip. Prints one summary line,
`browser: N passed, M failed`, and exits non-zero on any failure.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import traceback
import urllib.error
import urllib.request

os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a driver or a browser.

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

A = "/__understudy"
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# The hostile page: a real form aimed at /__understudy/offline (in a hidden frame), and scripts the test calls.
HOSTILE_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Totally harmless page</title></head>
<body style="font-family: sans-serif">
<h1>A page on another origin</h1>
<p>It tries to steer the Understudy at <code>%(target)s</code>. Results:</p>
<ol id="results"></ol>
<iframe name="sink" style="width: 600px; height: 80px"></iframe>
<form id="offline" method="POST" action="%(target)s/__understudy/offline" target="sink"
      enctype="text/plain"><input name='{"seconds":30,"pad":"' value='"}'></form>
<script>
  const target = %(target_json)s;
  function note(text) {
    const item = document.createElement("li");
    item.textContent = text;
    document.getElementById("results").appendChild(item);
  }
  async function attempt(label, url, options) {
    try {
      const reply = await fetch(url, options);
      const text = options && options.mode === "no-cors" ? "(opaque)" : await reply.text();
      note(label + ": answered " + reply.status + " " + reply.type);
      return {ok: true, status: reply.status, type: reply.type, text: text};
    } catch (error) {
      note(label + ": failed (" + error + ")");
      return {ok: false, error: String(error)};
    }
  }
</script>
</body></html>
"""


class Understudy:
    """`understudy --port 0` (and `arguments`) with its request log on stderr, read by a thread so that nothing blocks
    it."""

    def __init__(self, binary, arguments=()):
        self.process = subprocess.Popen([binary, "--port", "0", *arguments], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"listening on (http://127\.0\.0\.1:([0-9]+))", line)
        if not found:
            self.stop()
            raise RuntimeError("%s did not start: %r" % (binary, line))
        self.url, self.port = found.group(1), int(found.group(2))
        self.lines = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read_log, daemon=True).start()
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def _read_log(self):
        for line in self.process.stderr:
            with self.lock:
                self.lines.append(line.rstrip("\n"))

    def log_since(self, mark):
        with self.lock:
            return self.lines[mark:]

    def mark(self):
        with self.lock:
            return len(self.lines)

    def wait_for_log(self, mark, pattern, seconds=5):
        """The log lines since `mark` once one matches `pattern` (the log is written by a background queue)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            lines = self.log_since(mark)
            if any(re.search(pattern, line) for line in lines):
                return lines
            time.sleep(0.05)
        return self.log_since(mark)

    def admin(self, method, path, body=None):
        """An admin request as curl makes it: no Origin."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + A + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, json.loads(reply.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def state(self):
        """What a hostile request could change, as the admin API shows it."""
        _, health = self.admin("GET", "/health")
        _, rules = self.admin("GET", "/faults")
        _, sessions = self.admin("GET", "/sessions")
        return {"offline": health["offline"], "seed": health["seed"], "rules": rules, "sessions": sessions}

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def page_server(target):
    """Serves the hostile page on 127.0.0.1, another port; the browser loads it as http://localhost:PORT."""
    page = (HOSTILE_PAGE % {"target": target, "target_json": json.dumps(target)}).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser(port):
    for path in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(path):
            raise RuntimeError("%s is missing: install Debian's chromium and chromium-driver "
                               "(scripts/install-deps.sh browser)" % path)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1000,700", "--no-first-run", "--no-default-browser-check",
                     # DNS rebinding without DNS: evil.test is made to resolve to the server's address.
                     "--host-resolver-rules=MAP evil.test 127.0.0.1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_script_timeout(20)
    driver.set_page_load_timeout(20)
    return driver


def run_script(driver, body):
    """Runs an async script body; `done(value)` ends it."""
    return driver.execute_async_script("const done = arguments[arguments.length - 1];\n" + body)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def run(self, name, test):
        try:
            test()
        except Exception as error:  # noqa: BLE001 - every failure is reported, and the next check still runs
            self.failed += 1
            print("FAIL %s: %s" % (name, error))
            if not isinstance(error, AssertionError):
                traceback.print_exc()
        else:
            self.passed += 1
            print("ok   %s" % name)

    def report(self):
        """Prints the suite's last line, `browser: N passed, M failed`; the exit status: 0 when all passed."""
        print("browser: %d passed, %d failed" % (self.passed, self.failed))
        return 0 if self.failed == 0 and self.passed > 0 else 1


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server-bin", default=".build/debug/understudy")
    parser.add_argument("--screenshot", default=".build/browser/hostile-page.png")
    args = parser.parse_args()

    checks = Checks()
    server = Understudy(args.server_bin)
    pages = page_server(server.url)
    driver = None
    try:
        # Something to lose: a rule and a session, set up as a developer would (no Origin).
        expect(server.admin("POST", "/faults", {"match": {"path": "/products/2"}, "fault": "delay=1ms"})[0] == 201,
               "could not add the set-up rule")
        expect(server.admin("POST", "/sessions", {"id": "checkout", "seed": 7})[0] == 201,
               "could not open the set-up session")
        before = server.state()
        expect(before["offline"] is False and len(before["rules"]["rules"]) == 1, "unexpected start state %r" % before)

        driver = browser(pages.server_address[1])
        hostile = "http://localhost:%d/" % pages.server_address[1]
        driver.get(hostile)
        expect(driver.execute_script("return location.origin") != server.url, "the hostile page is not foreign")

        def unchanged(what):
            after = server.state()
            expect(after == before, "%s changed the server: %r, was %r" % (what, after, before))

        def form_post():
            mark = server.mark()
            driver.execute_script("document.getElementById('offline').submit()")
            # The form's script twin: urlencoded JSON in a no-cors fetch, a "simple" request with no preflight.
            result = run_script(driver, """attempt("no-cors form post", target + "/__understudy/offline",
                {method: "POST", mode: "no-cors", headers: {"Content-Type": "application/x-www-form-urlencoded"},
                 body: '{"seconds":30}'}).then(done);""")
            expect(result["ok"] and result["type"] == "opaque", "the no-cors post should be sent blind: %r" % result)
            lines = server.wait_for_log(mark, r"POST /__understudy/offline 403.*\n?")
            time.sleep(0.3)
            lines = server.log_since(mark)
            posts = [line for line in lines if line.startswith("POST /__understudy/offline ")]
            expect(len(posts) == 2 and all(" 403 " in line for line in posts),
                   "both posts must reach the server and be refused with 403: %r" % lines)
            unchanged("the form post")
            status, _ = server.admin("GET", "/health")
            expect(status == 200, "the server went offline")

        def fetch_journal():
            mark = server.mark()
            result = run_script(driver, 'attempt("fetch journal", target + "/__understudy/requests").then(done);')
            expect(not result["ok"], "reading the journal from another origin must fail: %r" % result)
            lines = server.wait_for_log(mark, r"GET /__understudy/requests")
            expect(any(line.startswith("GET /__understudy/requests 403 ") for line in lines),
                   "the journal read must be refused with 403: %r" % lines)
            unchanged("the journal read")

        def refused_preflight(what, method, init):
            """A cross-origin fetch that needs a preflight: the preflight is refused, and the request never sent."""
            mark = server.mark()
            result = run_script(driver, 'attempt("fetch %s", target + "/__understudy/faults", %s).then(done);'
                                % (what, init))
            expect(not result["ok"], "%s from another origin must fail: %r" % (what, result))
            server.wait_for_log(mark, r"OPTIONS /__understudy/faults")
            # The request that must never come has no event to wait for: give it the time a browser would take.
            time.sleep(0.3)
            lines = server.log_since(mark)
            expect(any(line.startswith("OPTIONS /__understudy/faults 403 ") for line in lines),
                   "the preflight must be refused with 403: %r" % lines)
            expect(not any(line.startswith(method + " ") for line in lines),
                   "after a refused preflight the %s must never be sent: %r" % (method, lines))
            unchanged("the " + what)

        def fetch_add_rule():
            refused_preflight("add rule", "POST", """{method: "POST", headers: {"Content-Type": "application/json"},
                 body: JSON.stringify({fault: "status=503"})}""")

        def delete_rules():
            refused_preflight("DELETE rules", "DELETE", '{method: "DELETE"}')

        def control_room():
            # The control room steers the server with clicks, so a foreign page must neither frame it (clickjacking)
            # nor read its feed. The frame's navigation says Sec-Fetch-Site: cross-site, so the gate refuses it,
            # and the page forbids framing anyway (frame-ancestors 'none', X-Frame-Options: DENY).
            mark = server.mark()
            driver.execute_script("""const frame = document.createElement("iframe");
                frame.src = target + "/__understudy/"; document.body.appendChild(frame);""")
            lines = server.wait_for_log(mark, r"GET /__understudy/ ")
            expect(any(line.startswith("GET /__understudy/ 403 ") for line in lines),
                   "framing the control room from another site must be refused with 403: %r" % lines)
            mark = server.mark()
            result = run_script(driver, 'attempt("fetch the feed", target + "/__understudy/events?count=1").then(done);')
            expect(not result["ok"], "reading the feed from another origin must fail: %r" % result)
            lines = server.wait_for_log(mark, r"GET /__understudy/events")
            expect(any(line.startswith("GET /__understudy/events") and " 403 " in line for line in lines),
                   "the feed must be refused with 403: %r" % lines)
            unchanged("the control room's frame and feed")

        def dns_rebinding():
            mark = server.mark()
            driver.get("http://evil.test:%d/products/1?select=id" % server.port)
            expect(driver.execute_script("return location.origin") == "http://evil.test:%d" % server.port,
                   "Chromium did not load the rebound name")
            result = run_script(driver, """fetch("/__understudy/requests").then(
                reply => reply.text().then(text => done({status: reply.status, text: text})),
                error => done({status: 0, text: String(error)}));""")
            expect(result["status"] == 403 and "Host 'evil.test:%d'" % server.port in result["text"],
                   "a rebound name must be refused by the Host check: %r" % result)
            lines = server.wait_for_log(mark, r"GET /__understudy/requests")
            expect(any(line.startswith("GET /__understudy/requests 403 ") for line in lines), "%r" % lines)
            unchanged("the rebound read")

        def same_origin_works():
            driver.get(server.url + A + "/health")
            result = run_script(driver, """fetch("/__understudy/faults", {method: "POST",
                    headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({match: {path: "/same-origin"}, fault: "status=418"})})
                .then(reply => reply.json().then(body => ({status: reply.status, body: body})))
                .then(added => fetch("/__understudy/faults").then(reply => reply.json())
                    .then(list => done({added: added, count: list.rules.length})))
                .catch(error => done({error: String(error)}));""")
            expect(result.get("added", {}).get("status") == 201, "a same-origin POST must work: %r" % result)
            expect(result["count"] == 2, "the same-origin page must read the rules: %r" % result)
            rules = server.state()["rules"]["rules"]
            expect([rule["fault"] for rule in rules] == ["delay=1ms", "status=418"], "rules now: %r" % rules)

        checks.run("hostile form post to /__understudy/offline (and its no-cors twin)", form_post)
        checks.run("hostile fetch of the journal", fetch_journal)
        checks.run("hostile fetch with JSON adding a rule", fetch_add_rule)
        checks.run("hostile DELETE of the rules", delete_rules)
        checks.run("hostile frame of the control room, and a read of its feed", control_room)
        os.makedirs(os.path.dirname(args.screenshot) or ".", exist_ok=True)
        driver.save_screenshot(args.screenshot)
        checks.run("DNS rebinding (evil.test resolved to 127.0.0.1)", dns_rebinding)
        checks.run("same-origin page on the server adds and lists rules", same_origin_works)
    except Exception as error:  # noqa: BLE001 - the set-up failing (no browser, no server) is a failure too
        checks.failed += 1
        print("FAIL set-up: %s" % error)
        traceback.print_exc()
    finally:
        if driver is not None:
            driver.quit()
        pages.shutdown()
        server.stop()
    print("screenshot: %s" % args.screenshot)
    return checks.report()


if __name__ == "__main__":
    sys.exit(main())

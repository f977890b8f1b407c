"""The control room in headless Chromium: a presenter's demo, checked end to end (issue #12).

    Tests/Browser/control_room.py --server-bin .build/debug/understudy [--screenshots .build/browser]

Starts `understudy --port 0`, opens http://127.0.0.1:PORT/__understudy/ and does what a presenter would: switches a
503 (with Retry-After) on for /products*, loads products in the demo client, and sees the 503 rows in the traffic,
the rule's fired counter, the client's retries honouring Retry-After, and the recovery once the switch is off. Then
offline with its countdown (and connections really refused), a shipped scenario, the ticker surviving `drop-after`
by reconnecting with Last-Event-ID, rows that expand into journal entries, filters, labels on every control, and a
second server with `--admin-token` whose page and feed refuse to work until the token is entered. Then a server with
`--upstream` (a third Understudy) whose Recording panel starts recording, lists the route, shows the upstream's status
in the traffic, stops and snapshots, and a server replaying that recording whose panel lists its routes and a miss,
and a server serving an OpenAPI document (`--spec`) whose Your API panel forces a status and an example on an
operation and clears it, and a server holding its upstream to a document with a planted mismatch whose Contract panel
names the operation, the violation and the offending bytes, and clears the report.
Last, the browser's console must hold no error, apart from the failed loads that the faults cause on purpose (a 503
is logged by Chromium as a failed resource).

Every wait is on a condition (WebDriverWait), never a fixed sleep. Screenshots go to --screenshots; the one of the
recovered demo is `control-room.png`. Prints `browser: N passed, M failed` and exits non-zero on any failure.
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import traceback
import urllib.error
import urllib.request

os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a driver or a browser.

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_page import CHROMEDRIVER, CHROMIUM, Checks, expect  # noqa: E402

A = "/__understudy"
TOKEN = "browser-s3cret"
# Chromium logs every non-2xx load as a console error; the demo client's are deliberate (that is the demo), and so
# is the 400 of the fault-spec typo.
DELIBERATE = re.compile(r"https?://127\.0\.0\.1:\d+/((products|auth)[/?\s]|__understudy/faults - .* 400 )")


class Server:
    """`understudy --port 0 [ARGS]`, its first line read for the URL; the rest of its output is drained."""

    def __init__(self, binary, *args):
        self.process = subprocess.Popen([binary, "--port", "0", "--quiet", *args], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"listening on (http://127\.0\.0\.1:([0-9]+))", line)
        if not found:
            self.stop()
            raise RuntimeError("%s did not start: %r" % (binary, line))
        self.url, self.port = found.group(1), int(found.group(2))
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        self.token = TOKEN if "--admin-token" in args else None

    def admin(self, method, path, body=None, token=True):
        """An admin request as curl makes it (no Origin); answers (status, JSON or text)."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token and self.token:
            headers["X-Understudy-Token"] = self.token
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + A + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                text = reply.read().decode()
                return reply.status, (json.loads(text) if text.startswith("{") else text)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read().decode() or "null")

    def rules(self):
        return self.admin("GET", "/faults")[1]["rules"]

    def refuses_connections(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2):
                return False
        except ConnectionRefusedError:
            return True

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def chromium():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", "--no-first-run", "--no-default-browser-check",
                     "--force-prefers-reduced-motion"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(20)
    return driver


class Room:
    """The page, driven as a presenter would: by element ids and visible state."""

    def __init__(self, driver, server):
        self.driver = driver
        self.server = server
        self.console = []

    def open(self):
        # The page before (another server's, perhaps stopped since) is left first and its console entries dropped:
        # its feed's reconnection to a stopped server is no error of this page.
        self.driver.get("about:blank")
        self.driver.get_log("browser")
        self.console = []
        self.driver.get(self.server.url + A + "/")

    def open_live(self, panel=None, name=None):
        """Opens the page and waits for its feed to be live, and for the panel `panel` (called `name`) to show."""
        self.open()
        self.wait_text("feed-status", r"^live$")
        if panel:
            self.wait(lambda: self.el(panel).is_displayed(), "the %s panel" % name)

    def el(self, id_):
        return self.driver.find_element(By.ID, id_)

    def text(self, id_):
        return self.el(id_).text

    def wait(self, condition, message, seconds=15):
        try:
            return WebDriverWait(self.driver, seconds, poll_frequency=0.1).until(lambda _: condition())
        except Exception as error:  # noqa: BLE001 - the timeout is reported with what was awaited
            raise AssertionError("%s (waited %d s): %s" % (message, seconds, type(error).__name__)) from None

    def wait_text(self, id_, pattern, seconds=15):
        self.wait(lambda: re.search(pattern, self.text(id_)), "#%s to match %r, it says %r" % (
            id_, pattern, self.safe_text(id_)), seconds)
        return self.text(id_)

    def safe_text(self, id_):
        try:
            return self.text(id_)
        except Exception:  # noqa: BLE001
            return "?"

    def switch(self, fault):
        return self.driver.find_element(By.CSS_SELECTOR, "#switches button[data-fault='%s']" % fault)

    def rows(self):
        """The traffic table's rows as (path, status, fault)."""
        return self.driver.execute_script("""return [...document.querySelectorAll('#requests tbody tr.entry')]
            .map(row => [row.cells[2].textContent, Number(row.dataset.status), row.cells[4].textContent]);""")

    def drain_console(self):
        self.console += self.driver.get_log("browser")

    def expect_no_console_errors(self, deliberate=None):
        """No error in the console since the page opened, but the failed loads `deliberate` matches."""
        self.drain_console()
        errors = [entry for entry in self.console if entry["level"] == "SEVERE"
                  and not (deliberate and entry.get("source") == "network" and deliberate.search(entry["message"]))]
        expect(errors == [], "console errors: %r" % errors)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server-bin", default=".build/debug/understudy")
    parser.add_argument("--screenshots", default=".build/browser")
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)

    checks = Checks()
    server = token_server = driver = None
    try:
        server = Server(args.server_bin)
        driver = chromium()
        room = Room(driver, server)

        def page_goes_live():
            room.open_live()
            expect(driver.title == "Understudy control room", driver.title)
            names = [b.get_attribute("data-fault") for b in driver.find_elements(By.CSS_SELECTOR, "#switches button")]
            expect("status=503; retry-after=2" in names and "drop-after=3" in names, "switches: %r" % names)
            room.wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#scenario-list button")) == 6,
                      "the six shipped scenarios as buttons")
            expect(server.admin("GET", "/recording")[1]["upstream"] is None, "the plain server has no upstream")
            expect(not room.el("recording").is_displayed(), "no Recording panel without an upstream or a replay")
            expect(not room.el("tls").is_displayed(), "no TLS faults panel without HTTPS")

        def fault_effect_and_recovery():
            switch = room.switch("status=503; retry-after=2")
            switch.click()
            room.wait(lambda: switch.get_attribute("aria-pressed") == "true", "the 503 switch to show on")
            rules = server.rules()
            expect([(r["match"].get("path"), r["fault"]) for r in rules] == [("/products*", "status=503; retry-after=2")],
                   "the switch is an ordinary rule: %r" % rules)
            room.el("load").click()
            room.wait_text("client-log", r"products: attempt 1 → 503; Retry-After: 2 honoured, retry in 2000 ms")
            room.wait(lambda: any(status == 503 and path.startswith("/products") for path, status, _ in room.rows()),
                      "a 503 row for /products in the traffic")
            room.wait_text("rules", r"fired [1-9]")
            room.wait(lambda: "fired" in switch.text, "the switch's own fired counter")
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(os.path.join(args.screenshots, "control-room-fault.png"))
            switch.click()  # off: the next retry succeeds
            room.wait(lambda: switch.get_attribute("aria-pressed") == "false", "the 503 switch to show off")
            expect(server.rules() == [], "switching off removes the rule: %r" % server.rules())
            status = room.wait_text("client-status", r"loaded after [2-5] attempts")
            expect(len(driver.find_elements(By.CSS_SELECTOR, "#products li")) == 5, "five products shown")
            room.wait(lambda: any(s == 200 and p.startswith("/products") for p, s, _ in room.rows()),
                      "the 200 of the recovery in the traffic")
            faults = [fault for _, s, fault in room.rows() if s == 503]
            expect(all(fault == "status=503; retry-after=2" for fault in faults), "fault column: %r" % faults)
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(os.path.join(args.screenshots, "control-room-recovered.png"))
            print("     client: %s" % status)

        def row_expands_and_filters():
            row = driver.find_element(By.CSS_SELECTOR, "#requests tbody tr.entry")
            row.send_keys(Keys.ENTER)
            room.wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#requests tr.detail pre"), "an expanded row")
            detail = json.loads(driver.find_element(By.CSS_SELECTOR, "#requests tr.detail pre").text)
            expect({"id", "headers", "status", "durationMs"} <= set(detail), "the journal entry: %r" % detail)
            Select(room.el("filter-status")).select_by_value("5")
            room.wait(lambda: room.rows() and all(s >= 500 for _, s, _ in room.rows()), "only 5xx rows")
            Select(room.el("filter-status")).select_by_value("")
            room.el("pause").click()
            expect(room.el("pause").get_attribute("aria-pressed") == "true", "paused")
            before = len(room.rows())
            urllib.request.urlopen(server.url + "/products/2", timeout=5).read()
            room.wait_text("pause", r"Resume \(1 new\)")
            expect(len(room.rows()) == before, "no new row while paused")
            room.el("pause").click()
            room.wait(lambda: len(room.rows()) == before + 1, "the held row after resuming")

        def offline_countdown():
            room.el("offline-seconds").clear()
            room.el("offline-seconds").send_keys("3")
            room.el("offline-go").click()
            room.wait_text("offline-countdown", r"offline · [0-9.]+ s left", seconds=5)
            expect(server.refuses_connections(), "new connections are refused while offline")
            room.wait_text("offline-countdown", r"^online$", seconds=10)
            room.wait(lambda: not server.refuses_connections(), "the server accepting again", seconds=5)

        def scenario_one_click():
            driver.find_element(By.CSS_SELECTOR, "#scenario-list button[data-scenario='outage-then-recovery']").click()
            room.wait_text("scenario-result", r"Loaded outage-then-recovery: 1 rule")
            room.wait_text("rules", r"status=503; retry-after=1; message=Service Unavailable")
            urllib.request.urlopen(server.url + "/ping", timeout=5).read()
            try:
                urllib.request.urlopen(server.url + "/products/1", timeout=5).read()
            except urllib.error.HTTPError as error:
                expect(error.code == 503, "the scenario's 503: %r" % error)
            room.wait(lambda: any("message=Service" in fault for _, _, fault in room.rows()), "the scenario's fault row")
            room.wait_text("rules", r"fired 1 · remaining 5")
            room.el("reset").click()
            room.wait_text("rules", r"No rules")
            expect(server.rules() == [], "reset clears the rules")

        def ticker_survives_drop():
            Select(room.el("group")).select_by_value("/products/stream")
            switch = room.switch("drop-after=3")
            switch.click()
            room.wait(lambda: switch.get_attribute("aria-pressed") == "true", "the stream-drop switch on")
            room.el("ticker-toggle").click()
            status = room.wait_text("ticker-status", r"[1-9] reconnects? · resumed at #4, no gap", seconds=20)
            room.wait_text("ticker-status", r"last #([5-9]|\d\d)", seconds=10)
            room.wait_text("client-log", r"reconnecting with Last-Event-ID: 3")
            room.wait_text("rules", r"drop-after=3.*\n?.*fired [1-9]")
            room.el("ticker-toggle").click()
            switch.click()
            room.wait(lambda: server.rules() == [], "the stream switch off")
            Select(room.el("group")).select_by_value("/products*")
            print("     ticker: %s" % status)

        def fault_spec_typo():
            room.el("spec").send_keys("status=503; retyr-after=2", Keys.ENTER)
            error = room.wait_text("spec-error", r"retyr-after")
            expect(re.search(r"position \d+|at \d+|\b1[0-9]\b", error), "the message gives the position: %r" % error)
            expect(server.rules() == [], "a typo adds nothing")
            room.el("spec").clear()

        def sockets_panel():
            # A socket opened from the page itself (Chromium's own WebSocket), kept on `window` to read what it got.
            driver.execute_script("""
                window.seen = []; window.socketClosed = null;
                const socket = new WebSocket(location.origin.replace('http', 'ws') + '/ws/feed?interval=60000');
                socket.onmessage = (event) => window.seen.push(event.data);
                socket.onclose = (event) => { window.socketClosed = [event.code, event.wasClean]; };
                window.panelSocket = socket;""")
            row = room.wait_text("sockets-list", r"ws-\d+ /ws/feed")
            expect("0 received" in row, "the row counts messages: %r" % row)
            # The close code is picked before the push: the row, refreshed every second, must keep it (and stay the
            # same element) while its counts change.
            item = driver.find_element(By.CSS_SELECTOR, "#sockets-list li")
            Select(item.find_element(By.TAG_NAME, "select")).select_by_value("4000")
            room.el("sockets-text").clear()
            room.el("sockets-text").send_keys("flash sale")
            room.el("sockets-send").click()
            room.wait_text("sockets-result", r"^Sent to 1 socket\(s\)$")
            room.wait(lambda: driver.execute_script("return window.seen") == ["flash sale"], "the page's socket got the push")
            room.wait(lambda: "1 sent" in item.text, "the same row counts the push")
            picked = Select(item.find_element(By.TAG_NAME, "select")).first_selected_option.get_attribute("value")
            expect(picked == "4000", "the picked close code survives the refresh: %r" % picked)
            item.find_element(By.XPATH, ".//button[text()='Close']").click()
            room.wait_text("sockets-result", r"^Closed ws-\d+ with 4000$")
            room.wait(lambda: driver.execute_script("return window.socketClosed") is not None, "the socket closed")
            closed = driver.execute_script("return window.socketClosed")
            expect(closed == [4000, True], "closed with %r, expected 4000 and clean" % (closed,))
            room.wait(lambda: room.el("sockets-empty").is_displayed(), "the list empties")

        def stage_and_labels():
            room.el("large").click()
            expect("large" in driver.execute_script("return document.documentElement.className"), "large type on")
            room.el("theme").click()
            room.el("large").click()
            unlabelled = driver.execute_script("""
                return [...document.querySelectorAll('button, input, select')].filter(el => {
                  if (el.closest('[hidden]')) return false;
                  const name = el.getAttribute('aria-label') || (el.labels && [...el.labels].map(l => l.textContent).join(''))
                    || el.textContent;
                  return !name || !name.trim();
                }).map(el => el.id || el.outerHTML.slice(0, 60));""")
            expect(unlabelled == [], "controls without a label: %r" % unlabelled)
            unreachable = driver.execute_script("""
                return [...document.querySelectorAll('button, input, select')]
                  .filter(el => !el.closest('[hidden]') && (el.tabIndex < 0 || el.disabled)).map(el => el.id);""")
            expect(unreachable == [], "controls out of the tab order: %r" % unreachable)

        def stage_screenshot():
            # The picture in the README: some traffic with a flaky 500 switched on, and the client recovering.
            room.el("probability").clear()
            room.el("probability").send_keys("0.3")
            switch = room.switch("status=500")
            switch.click()
            room.wait(lambda: switch.get_attribute("aria-pressed") == "true", "the 500 switch on")
            for index in range(40):  # ?delay paces them on the server, about 3 s in all
                try:
                    urllib.request.urlopen("%s/products/%d?delay=80" % (server.url, index % 9 + 1), timeout=5).read()
                except urllib.error.HTTPError:
                    pass
            room.wait_text("rates", r"[1-9]\d*% errors")
            room.el("load").click()
            room.wait_text("client-status", r"loaded after")
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(os.path.join(args.screenshots, "control-room.png"))
            switch.click()
            room.wait(lambda: server.rules() == [], "the 500 switch off")
            room.el("probability").clear()
            room.el("probability").send_keys("1")

        def no_console_errors():
            room.expect_no_console_errors(DELIBERATE)

        checks.run("the page opens and its feed goes live", page_goes_live)
        checks.run("a 503 switch: rows, counter, visible retries, recovery when it goes off", fault_effect_and_recovery)
        checks.run("rows expand into journal entries; status filter; pause", row_expands_and_filters)
        checks.run("offline for 3 s, with its countdown", offline_countdown)
        checks.run("a shipped scenario in one click, then reset", scenario_one_click)
        checks.run("the ticker survives drop-after, resuming with Last-Event-ID", ticker_survives_drop)
        checks.run("a typo in a fault spec shows the server's 400 with its position", fault_spec_typo)
        checks.run("the Sockets panel lists a page's socket, pushes to it, closes it with 4000", sockets_panel)
        checks.run("large type, theme, and a label on every control", stage_and_labels)
        checks.run("a busy stage, for the README's screenshot", stage_screenshot)
        checks.run("no console errors", no_console_errors)

        token_server = Server(args.server_bin, "--admin-token", TOKEN)
        locked = Room(driver, token_server)

        def token_mode():
            status, body = token_server.admin("GET", "/events?count=1", token=False)
            expect(status == 401, "the feed without the token: %r %r" % (status, body))
            locked.open()
            locked.wait(lambda: locked.el("token-form").is_displayed(), "the token form")
            locked.wait_text("feed-status", r"locked")
            expect(locked.text("rules").startswith("No rules"), "nothing loaded before the token")
            driver.save_screenshot(os.path.join(args.screenshots, "control-room-locked.png"))
            locked.el("token").send_keys(TOKEN, Keys.ENTER)
            locked.wait_text("feed-status", r"^live$")
            locked.wait(lambda: not locked.el("token-form").is_displayed(), "the token form gone")
            locked.switch("status=500").click()
            locked.wait_text("rules", r"status=500")
            expect([r["fault"] for r in token_server.rules()] == ["status=500"], "the rule, added with the token")
            expect(TOKEN not in driver.current_url, "the token is never in the URL")

        checks.run("--admin-token: refused without the token, works once it is entered", token_mode)

        upstream = Server(args.server_bin)
        proxy = Server(args.server_bin, "--upstream", upstream.url)
        proxied = Room(driver, proxy)
        directory = tempfile.mkdtemp(prefix="control-room-recording-")

        def recording_panel():
            proxied.open_live("recording", "Recording")
            expect(proxied.text("recording-upstream") == upstream.url, "the upstream: %r" % proxied.text("recording-upstream"))
            expect(proxied.text("recording-state") == "not recording", proxied.text("recording-state"))
            expect(not proxied.el("replay").is_displayed(), "no replayed routes without --replay")
            proxied.el("recording-directory").clear()
            proxied.el("recording-directory").send_keys(os.path.join(directory, "live"))
            proxied.el("recording-toggle").click()
            proxied.wait_text("recording-state", r"^recording into .*live$")
            expect(proxied.el("recording-toggle").get_attribute("aria-pressed") == "true", "the toggle shows on")
            expect(proxy.admin("GET", "/recording")[1]["recording"] is True, "the server records")
            urllib.request.urlopen(proxy.url + "/products/3", timeout=5).read()
            proxied.wait_text("recorded-routes", r"GET /products/3")
            expect(proxied.text("recorded-count") == "(1)", proxied.text("recorded-count"))
            # The forwarded request's row says what the upstream answered, and how fast.
            proxied.wait(lambda: proxied.driver.execute_script(
                "const row = document.querySelector('#requests tbody tr.entry');"
                "return row && /^200 · \\d+ ms$/.test(row.cells[7].textContent) && row.cells[7].offsetWidth > 0;"),
                "the upstream's 200 and time in the traffic row")
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(os.path.join(args.screenshots, "control-room-recording.png"))
            proxied.el("recording-toggle").click()
            proxied.wait_text("recording-state", r"^not recording$")
            expect(proxy.admin("GET", "/recording")[1]["recording"] is False, "stopped on the server too")
            proxied.wait(lambda: os.path.exists(os.path.join(directory, "live", "GET", "products", "3.json")),
                         "the recorded file on disk")
            proxied.el("recording-directory").clear()
            proxied.el("recording-directory").send_keys(os.path.join(directory, "snapshot"))
            proxied.el("recording-snapshot").click()
            proxied.wait_text("recording-result", r"^Snapshot: 1 exchange\(s\) into .*snapshot$")

        def replay_panel():
            replay = Server(args.server_bin, "--replay", os.path.join(directory, "live"))
            try:
                replayed = Room(driver, replay)
                replayed.open_live()
                replayed.wait_text("replayed-routes", r"GET /products/3")
                expect(not replayed.el("recording-form").is_displayed(), "no recording controls without an upstream")
                expect(replayed.text("miss-count") == "0", replayed.text("miss-count"))
                try:
                    urllib.request.urlopen(replay.url + "/products/9?x=1", timeout=5).read()
                except urllib.error.HTTPError as error:
                    expect(error.code == 502, "a miss: %r" % error)
                replayed.wait_text("miss-count", r"^1$")
                replayed.wait_text("recent-misses", r"^GET /products/9\?x=1$")
            finally:
                replay.stop()

        def spec_panel():
            path = os.path.join(directory, "pets.json")
            with open(path, "w") as out:
                json.dump({"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"}, "paths": {"/pets/{id}": {"get": {
                    "operationId": "getPet", "summary": "One pet", "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                    "responses": {
                        "200": {"description": "found", "content": {"application/json": {"examples": {
                            "rex": {"value": {"id": 1, "name": "Rex"}}, "tom": {"value": {"id": 1, "name": "Tom"}}}}}},
                        "5XX": {"description": "down", "content": {"application/json": {"example": {"message": "down"}}}}}}}}},
                          out)
            spec = Server(args.server_bin, "--spec", path)
            try:
                served = Room(driver, spec)
                served.open_live("openapi", "Your API")
                served.wait_text("openapi-title", r"^Pets \(OpenAPI 3\.1\.0, 1 operations\)$")
                expect(not served.el("recording").is_displayed(), "no Recording panel with a document")
                item = driver.find_element(By.CSS_SELECTOR, '#openapi-operations li[data-operation="getPet"]')
                expect("GET /pets/{id}" in item.text and "One pet" in item.text, item.text)
                selects = item.find_elements(By.TAG_NAME, "select")
                Select(selects[0]).select_by_value("500")
                item.find_element(By.XPATH, ".//button[text()='Force']").click()
                served.wait_text("openapi-result", r"^getPet: forced status 500$")
                expect(spec.admin("GET", "/spec")[1]["operations"][0]["preference"]["code"] == 500, "forced on the server")
                try:
                    urllib.request.urlopen(spec.url + "/pets/1", timeout=5).read()
                    expect(False, "a forced 500 answered 2xx")
                except urllib.error.HTTPError as error:
                    expect(error.code == 500 and b"down" in error.read(), "the forced 500: %r" % error)
                item = driver.find_element(By.CSS_SELECTOR, '#openapi-operations li[data-operation="getPet"]')
                item.find_element(By.XPATH, ".//button[text()='Clear']").click()
                served.wait_text("openapi-result", r"^getPet: as documented$")
                item = driver.find_element(By.CSS_SELECTOR, '#openapi-operations li[data-operation="getPet"]')
                Select(item.find_elements(By.TAG_NAME, "select")[1]).select_by_value("tom")
                item.find_element(By.XPATH, ".//button[text()='Force']").click()
                served.wait_text("openapi-result", r"^getPet: forced example tom$")
                with urllib.request.urlopen(spec.url + "/pets/1", timeout=5) as reply:
                    expect(b"Tom" in reply.read(), "the forced example")
                served.el("openapi-reset").click()
                served.wait_text("openapi-result", r"^Stored data cleared")
                served.expect_no_console_errors()
            finally:
                spec.stop()

        def contract_panel():
            # The project's own document with the price's type changed: the upstream's every product breaks it.
            source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "openapi", "openapi.yaml")
            with open(source) as document:
                text = document.read()
            expect("    ProductPrice: {type: number," in text, "the document's ProductPrice moved")
            planted = os.path.join(directory, "planted.yaml")
            with open(planted, "w") as out:
                out.write(text.replace("    ProductPrice: {type: number,", "    ProductPrice: {type: string,", 1))
            checker = Server(args.server_bin, "--upstream", upstream.url, "--spec", planted)
            try:
                checked = Room(driver, checker)
                checked.open_live("contract", "Contract")
                checked.wait_text("contract-title", r"^Understudy")
                with urllib.request.urlopen(checker.url + "/products/1", timeout=5) as reply:
                    expect(reply.status == 200 and "/price" in reply.headers.get("X-Understudy-Violations", ""),
                           "the reply names the violation")
                checked.wait_text("contract-counts", r"^1 exchanges, [1-9][0-9]* violations, 0 mocked$")
                checked.wait_text("contract-operations", r"GET /products/\{id\}\s+1 seen, [1-9][0-9]* violations")
                checked.wait_text("contract-recent", r"GET /products/1 → 200")
                recent = checked.text("contract-recent")
                expect("response.body#/price (type)" in recent, "the violation: %r" % recent)
                expect('"price":' in recent, "the offending bytes: %r" % recent)
                checked.el("contract-clear").click()
                checked.wait_text("contract-result", r"^Cleared [1-9][0-9]* violation\(s\)$")
                checked.wait_text("contract-counts", r"^0 exchanges, 0 violations, 0 mocked$")
                checked.expect_no_console_errors()
            finally:
                checker.stop()

        try:
            checks.run("--upstream: the Recording panel starts, lists the route, shows the upstream, stops", recording_panel)
            checks.run("--replay: the panel lists the replayed routes and the misses", replay_panel)
            checks.run("--spec: the Your API panel forces a status and an example on an operation, then clears", spec_panel)
            checks.run("--upstream --spec: the Contract panel names the operation, the violation and its bytes, then clears",
                       contract_panel)
        finally:
            proxy.stop()
            upstream.stop()
            shutil.rmtree(directory, ignore_errors=True)
    except Exception as error:  # noqa: BLE001 - the set-up failing (no browser, no server) is a failure too
        checks.failed += 1
        print("FAIL set-up: %s" % error)
        traceback.print_exc()
    finally:
        if driver is not None:
            driver.quit()
        for each in (server, token_server):
            if each is not None:
                each.stop()
    print("screenshots: %s" % args.screenshots)
    return checks.report()


if __name__ == "__main__":
    sys.exit(main())

"""The control room over HTTPS in headless Chromium, trusting the local CA through its NSS database (issue #24).

    Tests/Browser/https_control_room.py --server-bin .build/debug/understudy

Starts `understudy --port 0 --tls` with a CA of its own in a temporary --tls-dir, imports that CA into a fresh NSS
database (certutil, from libnss3-tools) under a temporary HOME, and opens https://localhost:PORT/__understudy/ as a
browser that trusts it: the page loads in a secure context, reaches the admin API as its own https origin, and a
login's `Secure` cookie is kept and sent back. A browser without the CA gets Chromium's certificate error page
instead. Certificate errors are never ignored (no --ignore-certificate-errors). Prints `browser: N passed, M failed`
and exits non-zero on any failure.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a driver or a browser.

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_page import CHROMEDRIVER, CHROMIUM, Checks, expect, run_script  # noqa: E402


def start_server(binary, tls_dir):
    process = subprocess.Popen([binary, "--port", "0", "--tls", "--tls-dir", tls_dir, "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    found = re.search(r"listening on https://127\.0\.0\.1:([0-9]+)", process.stdout.readline())
    if not found:
        process.kill()
        raise RuntimeError("%s --tls did not start" % binary)
    return process, int(found.group(1))


def browser(home):
    """Chromium with `home` as HOME, so it reads the NSS database in home/.pki/nssdb (and nothing of the user's)."""
    for path in (CHROMIUM, CHROMEDRIVER, "certutil"):
        if not shutil.which(path):
            raise RuntimeError("%s is missing (scripts/install-deps.sh browser installs chromium, chromium-driver "
                               "and libnss3-tools)" % path)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                     "--no-default-browser-check", "--user-data-dir=" + os.path.join(home, "profile")):
        options.add_argument(argument)
    service = Service(executable_path=CHROMEDRIVER, env=dict(os.environ, HOME=home))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_script_timeout(20)
    driver.set_page_load_timeout(20)
    return driver


def wait_for(condition, what, seconds=10):
    """Polls `condition` every 50 ms until it holds; fails naming `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    expect(False, "timed out waiting for %s" % what)


def trusting_home(work, ca_path):
    """A HOME whose NSS database trusts the CA for TLS servers (the `C` trust flag)."""
    home = os.path.join(work, "trusting")
    database = "sql:" + os.path.join(home, ".pki", "nssdb")
    os.makedirs(os.path.join(home, ".pki", "nssdb"))
    subprocess.run(["certutil", "-N", "-d", database, "--empty-password"], check=True)
    subprocess.run(["certutil", "-A", "-d", database, "-n", "understudy-ca", "-t", "C,,", "-i", ca_path], check=True)
    return home


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server-bin", default=".build/debug/understudy")
    args = parser.parse_args()
    checks = Checks()
    work = tempfile.mkdtemp(prefix="understudy-https-browser-")
    server, port = start_server(args.server_bin, os.path.join(work, "tls"))
    page = "https://localhost:%d/__understudy/" % port
    drivers = []
    try:
        trusted = browser(trusting_home(work, os.path.join(work, "tls", "understudy-ca.pem")))
        drivers.append(trusted)

        def loads_in_a_secure_context():
            trusted.get(page)
            expect(trusted.title == "Understudy control room", "title %r" % trusted.title)
            expect(trusted.execute_script("return window.isSecureContext && location.protocol") == "https:",
                   "not a secure https context")

        def reaches_the_admin_api_as_its_own_origin():
            status = run_script(trusted, "fetch('/__understudy/health').then(r => done(r.status), e => done(String(e)));")
            expect(status == 200, "health from the page: %r" % status)

        def keeps_and_sends_the_secure_login_cookie():
            status = run_script(trusted, """
                fetch('/auth/login', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                      body: JSON.stringify({username: 'emilys', password: 'emilyspass'})})
                  .then(() => fetch('/auth/me', {credentials: 'same-origin'}))
                  .then(r => done(r.status), e => done(String(e)));""")
            expect(status == 200, "/auth/me with the cookie alone: %r" % status)

        def queues_tls_faults_from_the_panel():
            trusted.get(page)
            wait_for(lambda: trusted.find_element("id", "tls").is_displayed(), "the TLS faults panel")
            trusted.find_element("id", "tls-times").clear()
            trusted.find_element("id", "tls-times").send_keys("2")
            trusted.find_element("css selector", "#tls-form button[type=submit]").click()
            wait_for(lambda: "expired × 2" in trusted.find_element("id", "tls-queued").text, "the queued fault listed")
            trusted.find_element("id", "tls-clear").click()
            wait_for(lambda: trusted.find_element("id", "tls-queued").text == "", "the queue cleared")
            expect(trusted.find_element("id", "tls-result").text == "Dropped 1 queued fault(s)",
                   trusted.find_element("id", "tls-result").text)

        checks.run("the control room loads over https in a secure context", loads_in_a_secure_context)
        checks.run("the TLS faults panel queues and clears a fault", queues_tls_faults_from_the_panel)
        checks.run("the page reaches the admin API as its own https origin", reaches_the_admin_api_as_its_own_origin)
        checks.run("the Secure login cookie is kept and sent over https", keeps_and_sends_the_secure_login_cookie)

        def refuses_without_the_ca():
            untrusting = os.path.join(work, "untrusting")
            os.makedirs(untrusting)
            driver = browser(untrusting)
            drivers.append(driver)
            try:
                driver.get(page)
            except Exception:  # noqa: BLE001 - a refused load may also surface as a WebDriver error
                pass
            source = driver.page_source
            expect(driver.title != "Understudy control room", "the page loaded without the CA")
            expect("ERR_CERT_AUTHORITY_INVALID" in source or "Your connection is not private" in source,
                   "no certificate error page: %r" % driver.title)

        checks.run("without the CA, Chromium shows its certificate error", refuses_without_the_ca)
    finally:
        for driver in drivers:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    return checks.report()


if __name__ == "__main__":
    sys.exit(main())

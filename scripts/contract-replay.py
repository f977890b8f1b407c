#!/usr/bin/env python3
"""Replays the golden contract cases against a running server.

The cases are Sources/UnderstudyTesting/Resources/contracts/*.json (resources of the UnderstudyTesting library).

    scripts/contract-replay.py http://127.0.0.1:8080 [--server-bin .build/debug/understudy] [--cases DIR]
                               [--spec openapi/openapi.yaml] [NAME...]

The case format is described in fixtures/contracts/README.md. Exits 1 when any case fails, printing the request,
what was expected and what came back. Cases marked `isolated` (the admin API, set-ups, server configurations) run
against a server of their own, started from --server-bin for the case and stopped after it, so nothing they change
reaches the server at URL or another case; without --server-bin they are skipped, which also fails the run.
Schema checks (`"schema": "Product"`) need PyYAML and jsonschema, which the contract venv has
(scripts/contract.sh); without them they are skipped with a warning.
"""
import argparse
import glob
import http.client
import json
import os
import re
import subprocess
import sys
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLACEHOLDER = re.compile(r"\{\{token:([A-Za-z0-9_.-]+)\}\}")


class Server:
    def __init__(self, base, tokens=None):
        url = urllib.parse.urlsplit(base)
        if url.hostname not in ("127.0.0.1", "localhost", "::1"):
            sys.exit("contract-replay: refusing to send traffic anywhere but the loopback address")
        self.host, self.port = url.hostname, url.port or 80
        # Shared with the isolated servers: a token from one verifies on all (same secret), and logging in on an
        # isolated server would put the login in its journal.
        self.tokens = {} if tokens is None else tokens
        self.login = self

    def send(self, method, target, headers, body):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=15)
        try:
            conn.request(method, target, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, resp.getheaders(), data
        finally:
            conn.close()

    def token(self, username):
        """Logs in as `username` (password `<username>pass`) once, on the main server, and keeps the access token."""
        if username not in self.tokens:
            body = json.dumps({"username": username, "password": username + "pass"}).encode()
            status, _, data = self.login.send("POST", "/auth/login", {"Content-Type": "application/json"}, body)
            if status != 200:
                raise RuntimeError("login as %s for {{token:%s}} failed: %d %r" % (username, username, status, data))
            self.tokens[username] = json.loads(data)["accessToken"]
        return self.tokens[username]


def fill(value, server):
    """Replaces every {{token:USER}} in strings, lists and objects."""
    if isinstance(value, str):
        return PLACEHOLDER.sub(lambda m: server.token(m.group(1)), value)
    if isinstance(value, list):
        return [fill(v, server) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, server) for k, v in value.items()}
    return value


def build(request, server):
    request = fill(request, server)
    target = request["path"]
    pairs = []
    for name, value in request.get("query", {}).items():
        for one in value if isinstance(value, list) else [value]:
            pairs.append((name, one))
    if pairs:
        target += "?" + urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)
    headers = dict(request.get("headers", {}))
    has_type = any(k.lower() == "content-type" for k in headers)
    body = None
    if "body" in request:
        body = json.dumps(request["body"], separators=(",", ":"), ensure_ascii=False).encode()
        if not has_type:
            headers["Content-Type"] = "application/json"
    elif "form" in request:
        body = request["form"].encode()
        if not has_type:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif "rawBody" in request:
        body = request["rawBody"].encode() * request.get("rawBodyRepeat", 1)
    return request["method"], target, headers, body


class IsolatedServer:
    """`understudy --port 0 --quiet` with the case's `server` options, for one case."""

    def __init__(self, binary, options, main):
        args = [binary, "--port", "0", "--quiet"]
        if "adminToken" in options:
            args += ["--admin-token", options["adminToken"]]
        if "host" in options:
            args += ["--host", options["host"]]
        for name in options.get("allowHosts", []):
            args += ["--allow-host", name]
        if "fixtures" in options:
            # Relative to the repository root, as the cases are written.
            args += ["--fixtures", os.path.join(ROOT, options["fixtures"])]
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"listening on http://([^\s/]+):([0-9]+)", line)
        if not found:
            self.stop()
            raise RuntimeError("%s did not start: %r" % (" ".join(args), line))
        # A server bound to every address is still reached on loopback.
        self.server = Server("http://127.0.0.1:%s" % found.group(2), tokens=main.tokens)
        self.server.login = main

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def pointer(document, path):
    """The value at a JSON Pointer (RFC 6901), or a KeyError naming where it stops."""
    value = document
    for token in path.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        elif isinstance(value, dict) and token in value:
            value = value[token]
        else:
            raise KeyError(path)
    return value


def same(a, b):
    """JSON equality where object key order matters and 10 equals 10.0 (but not true)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def first_difference(expected, actual, path="$"):
    if isinstance(expected, dict) and isinstance(actual, dict):
        if list(expected) != list(actual):
            return "%s: keys %s, expected %s" % (path, list(actual), list(expected))
        for k in expected:
            d = first_difference(expected[k], actual[k], "%s.%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return "%s: %d items, expected %d" % (path, len(actual), len(expected))
        for i, (x, y) in enumerate(zip(expected, actual)):
            d = first_difference(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    if not same(expected, actual):
        return "%s: %s, expected %s" % (path, json.dumps(actual)[:200], json.dumps(expected)[:200])
    return None


class Schemas:
    def __init__(self, spec_path):
        self.error = None
        try:
            import jsonschema
            import yaml
        except ImportError as e:
            self.error = "schema checks skipped (%s); run under the contract venv" % e
            return
        if not os.path.exists(spec_path):
            self.error = "schema checks skipped: %s not found" % spec_path
            return
        with open(spec_path, encoding="utf-8") as f:
            self.doc = yaml.safe_load(f)
        self.jsonschema = jsonschema

    def validate(self, name, instance):
        if name not in self.doc.get("components", {}).get("schemas", {}):
            return "no schema %r in the spec" % name
        root = dict(self.doc)
        root["$ref"] = "#/components/schemas/" + name
        v = self.jsonschema.Draft202012Validator(root, format_checker=self.jsonschema.Draft202012Validator.FORMAT_CHECKER)
        errors = sorted(v.iter_errors(instance), key=lambda e: list(e.absolute_path))
        if errors:
            e = errors[0]
            return "schema %s: at %s: %s" % (name, "/".join(map(str, e.absolute_path)) or "(root)", e.message[:300])
        return None


DUMP_DIR = None
# Headers whose value changes from run to run, left out of a dump so that two dumps compare byte for byte.
VOLATILE = {"date", "x-ratelimit-reset"}


def dump(name, status, headers, data):
    """Writes what came back for a case (status, headers in order, body) to DUMP_DIR/NAME.txt: `--dump` before and
    after a change, then `diff -r`, shows whether any byte on the wire moved."""
    lines = ["%d" % status] + ["%s: %s" % (k, v) for k, v in headers if k.lower() not in VOLATILE]
    with open(os.path.join(DUMP_DIR, name + ".txt"), "wb") as f:
        f.write(("\n".join(lines) + "\n\n").encode() + data)


def check(case, server, schemas):
    problems = []
    for index, step in enumerate(case.get("setup", [])):
        method, target, headers, body = build(step, server)
        status, _, data = server.send(method, target, headers, body)
        wanted = step.get("status")
        if not (status == wanted if wanted is not None else 200 <= status < 300):
            problems.append("setup %d (%s %s) answered %d %r" % (index + 1, method, target, status, data[:200]))
    if problems:
        return problems, (method, target, status, data)
    method, target, headers, body = build(case["request"], server)
    status, got_headers, data = server.send(method, target, headers, body)
    if DUMP_DIR:
        dump(case["name"], status, got_headers, data)
    expected = case["response"]
    if status != expected["status"]:
        problems.append("status %d, expected %d" % (status, expected["status"]))
    lowered = {}
    for k, v in got_headers:
        lowered.setdefault(k.lower(), []).append(v)
    # evhttp's own refusals leave as JSON like every other reply (RefusalPages.c), and end their connection.
    if case.get("evhttpRefusal") and lowered.get("connection") != ["close"]:
        problems.append("connection %r, expected close after one of evhttp's refusals" % lowered.get("connection"))
    for name, value in expected.get("headers", {}).items():
        values = lowered.get(name.lower())
        if values is None:
            problems.append("header %s missing, expected %r" % (name, value))
        elif value not in values:
            problems.append("header %s is %r, expected %r" % (name, values[0] if len(values) == 1 else values, value))
    for name in expected.get("headersAbsent", []):
        if name.lower() in lowered:
            problems.append("header %s is %r, expected none" % (name, lowered[name.lower()]))
    if expected.get("bodyEmpty") and data:
        problems.append("body %r, expected none" % data[:200])
    if "bodyText" in expected and data != expected["bodyText"].encode():
        problems.append("body %r, expected %r" % (data[:300], expected["bodyText"].encode()[:300]))
    parsed = None
    wants_json = any(k in expected for k in ("body", "bodyKeys", "bodyAt", "schema"))
    if wants_json:
        try:
            parsed = json.loads(data)
        except ValueError:
            problems.append("body is not JSON: %r" % data[:200])
            wants_json = False
    if wants_json:
        if "body" in expected:
            d = first_difference(expected["body"], parsed)
            if d:
                problems.append("body differs at " + d)
        if "bodyKeys" in expected:
            keys = list(parsed) if isinstance(parsed, dict) else None
            if keys != expected["bodyKeys"]:
                problems.append("keys %s, expected %s" % (keys, expected["bodyKeys"]))
        for path, value in expected.get("bodyAt", {}).items():
            try:
                d = first_difference(value, pointer(parsed, path), path)
            except KeyError:
                d = "%s: not in the body" % path
            if d:
                problems.append("body differs at " + d)
        if "schema" in expected and schemas.error is None:
            d = schemas.validate(expected["schema"], parsed)
            if d:
                problems.append(d)
    return problems, (method, target, status, data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("names", nargs="*", help="case names to run (default: all)")
    parser.add_argument("--server-bin", help="the understudy binary to start a server with for each isolated case")
    parser.add_argument("--cases", default=os.path.join(ROOT, "Sources", "UnderstudyTesting", "Resources", "contracts"))
    parser.add_argument("--spec", default=os.path.join(ROOT, "openapi", "openapi.yaml"))
    parser.add_argument("--dump", metavar="DIR", help="also write each case's reply (status, headers, body) to DIR")
    args = parser.parse_args()
    if args.dump:
        global DUMP_DIR
        DUMP_DIR = args.dump
        os.makedirs(DUMP_DIR, exist_ok=True)

    server = Server(args.url)
    schemas = Schemas(args.spec)
    if schemas.error:
        print("warning: " + schemas.error)
    files = sorted(glob.glob(os.path.join(args.cases, "*.json")))
    passed = failed = skipped = isolated_run = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        if args.names and case["name"] not in args.names:
            continue
        if case.get("isolated") and not args.server_bin:
            skipped += 1
            continue
        isolated = None
        try:
            if case.get("isolated"):
                isolated_run += 1
                isolated = IsolatedServer(args.server_bin, case.get("server", {}), server)
            problems, (method, target, status, data) = check(case, isolated.server if isolated else server, schemas)
        except Exception as e:  # a refused connection, a failed login
            problems, method, target, status, data = ["error: %s" % e], case["request"]["method"], case["request"]["path"], 0, b""
        finally:
            if isolated:
                isolated.stop()
        if problems:
            failed += 1
            print("FAIL %s: %s %s -> %d %s" % (case["name"], method, target, status, data[:300].decode("utf-8", "replace")))
            for p in problems:
                print("     " + p)
        else:
            passed += 1
    summary = "golden cases: %d passed, %d failed (%d of them isolated, each on a server of its own)" % (
        passed, failed, isolated_run)
    if skipped:
        summary += "; %d isolated cases NOT RUN: they need --server-bin" % skipped
    print(summary)
    sys.exit(1 if failed or skipped else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks the code blocks of README.md and of the DocC articles (Sources/*/*.docc/**/*.md).

    scripts/snippets.py [--server-bin .build/debug/understudy] [--no-shell]

- Every ```swift block must be, line for line (leading indentation and trailing blanks aside), a region of
  Tests/SnippetTests/*.swift between `// snippet: NAME` and `// end`; that target is built by
  `swift build --build-tests`, so a block found here is a block that compiles. Apple-only blocks (SwiftUI,
  XCUITest) are regions of Tests/AppleSnippetTests, which links no server, so a Mac's build compiles them. The block's leading `import`
  lines stand outside the region: each must be an import of the region's file. A block preceded by
  `<!-- snippet: manifest -->` is a Package.swift excerpt instead: every product it names and every platform it
  declares must be in this package's Package.swift. A block preceded by `<!-- snippet: external -->` needs
  another package's code (swift-openapi-generator's output) and cannot be compiled here; it is counted apart.
- Every ```sh / ```bash block runs, in a temporary directory, against a fresh server of its own started from
  --server-bin on a free port, as on a fresh `make run` (the blocks' 127.0.0.1:8080 and localhost:8080 are
  rewritten to it). It fails on a non-zero exit status; curl gets `--fail-with-body`, so an HTTP error fails it
  too, unless the block is preceded by `<!-- snippet: http-errors -->` (it shows faults on purpose). A block preceded by
  `<!-- snippet: skip -->` is not run (`make run`, a package manager, a server that runs until stopped). A block
  preceded by `<!-- snippet: spec -->` runs from the repository against a server serving
  fixtures/openapi/petstore.yaml (`--spec`), with `understudy` on its PATH; as under `http-errors`, an HTTP
  error status does not fail it (the guide shows 401, 404, 422 and 503 on purpose).

Exits 1, naming file and line, when a block fails.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*([\w-]+)\s*-->\s*$")
SHELLS = {"sh", "bash", "shell"}


def documents():
    paths = [os.path.join(ROOT, "README.md")]
    paths += sorted(glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "**", "*.md"), recursive=True))
    return paths


def blocks(path):
    """Yields (line number, language, marker, lines) for each fenced block."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    marker = None
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            marker = m.group(1)
            i += 1
            continue
        fence = FENCE.match(lines[i])
        if fence:
            start = i + 1
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            yield start, fence.group(2).lower(), marker, body
            marker = None
        elif lines[i].strip():
            marker = None
        i += 1


def normalise(lines):
    out = [line.strip() for line in lines]
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return out


def snippet_regions():
    """Maps each region's normalised lines to the imports of its file."""
    regions = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "SnippetTests", "*.swift"))
                       + glob.glob(os.path.join(ROOT, "Tests", "AppleSnippetTests", "*.swift"))):
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        imports = {line.strip() for line in lines if line.strip().startswith("import ")}
        apple_only = os.path.basename(os.path.dirname(path)) == "AppleSnippetTests"
        name = None
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("// snippet:"):
                name, body = stripped[len("// snippet:"):].strip(), []
            elif stripped == "// end" and name is not None:
                regions[tuple(normalise(body))] = (imports, apple_only)
                name = None
            elif name is not None:
                body.append(line)
    return regions


def matches(lines, regions):
    imports = []
    while lines and (lines[0].startswith("import ") or not lines[0]):
        if lines[0]:
            imports.append(lines[0])
        lines = lines[1:]
    region = regions.get(tuple(lines))
    return region if region is not None and set(imports) <= region[0] else None


def check_manifest(body):
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as f:
        manifest = f.read()
    products = set(re.findall(r'\.library\(name: "(\w+)"', manifest))
    platforms = re.search(r"platforms: \[([^\]]*)\]", manifest).group(1)
    text = "\n".join(body)
    problems = ["product %s is not a library of Package.swift" % p
                for p in re.findall(r'\.product\(name: "(\w+)"', text) if p not in products]
    declared = re.search(r"platforms: \[([^\]]*)\]", text)
    if declared:
        for platform in re.findall(r"\.\w+\(\.v\w+\)", declared.group(1)):
            if platform not in platforms:
                problems.append("platform %s is not Package.swift's" % platform)
    return problems


# The document a block preceded by `<!-- snippet: spec -->` is served from (the guide's example).
SPEC_DOCUMENT = os.path.join(ROOT, "fixtures", "openapi", "petstore.yaml")


class Server:
    def __init__(self, binary, work, arguments=()):
        self.binary = binary
        self.out = open(os.path.join(work, "server.out"), "w+")
        self.process = subprocess.Popen([binary, "--port", "0", "--quiet", *arguments], stdout=self.out,
                                        stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        self.url = None
        while time.time() < deadline and self.url is None:
            self.out.seek(0)
            m = re.search(r"listening on (http://127\.0\.0\.1:\d+)", self.out.read())
            if m:
                self.url = m.group(1)
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.1)
        if self.url is None:
            self.stop()
            raise RuntimeError("the server did not start: %s" % binary)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_shell(body, marker, server, work):
    home = tempfile.mkdtemp(dir=work)
    with open(os.path.join(home, ".curlrc"), "w") as f:
        f.write("silent\nshow-error\nmax-time = 30\n")
        if marker not in ("http-errors", "spec"):
            f.write("fail-with-body\n")
    script = "\n".join(body)
    host = server.url[len("http://"):]
    script = script.replace("127.0.0.1:8080", host).replace("localhost:8080", host)
    env = dict(os.environ, HOME=home)
    if marker == "spec":
        # The block works from the repository (fixtures/openapi/petstore.yaml) with `understudy` on its PATH.
        env["PATH"] = os.path.dirname(os.path.abspath(server.binary)) + os.pathsep + env.get("PATH", "")
    try:
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=ROOT if marker == "spec" else home, env=env,
                                capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "did not finish in 120 s"
    if result.returncode != 0:
        return "exit status %d\n%s%s" % (result.returncode, result.stdout[-1500:], result.stderr[-1500:])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server-bin", default=os.path.join(ROOT, ".build", "debug", "understudy"))
    parser.add_argument("--no-shell", action="store_true", help="check the Swift blocks only")
    args = parser.parse_args()

    regions = snippet_regions()
    failures = []
    swift = apple = manifests = external = shell = skipped = 0
    shell_blocks = []
    for path in documents():
        name = os.path.relpath(path, ROOT)
        for line, language, marker, body in blocks(path):
            where = "%s:%d" % (name, line)
            if language == "swift":
                swift += 1
                region = matches(normalise(body), regions)
                if marker == "external":
                    external += 1
                elif marker == "manifest":
                    manifests += 1
                    failures += ["%s: %s" % (where, p) for p in check_manifest(body)]
                elif region:
                    apple += region[1]
                else:
                    failures.append("%s: this swift block is not a `// snippet:` region of Tests/SnippetTests (or "
                                    "imports what that region's file does not), so nothing compiles it: copy it "
                                    "there, or fix the one that drifted" % where)
            elif language in SHELLS:
                if marker == "skip":
                    skipped += 1
                elif not args.no_shell:
                    shell_blocks.append((where, marker, body))
            elif marker is not None and marker != "skip":
                failures.append("%s: marker '%s' on a %s block" % (where, marker, language or "plain"))

    if shell_blocks:
        if not os.access(args.server_bin, os.X_OK):
            print("snippets: no server binary at %s (build it, or pass --server-bin)" % args.server_bin)
            sys.exit(1)
        work = tempfile.mkdtemp(prefix="understudy-snippets.")
        try:
            for where, marker, body in shell_blocks:
                shell += 1
                server = Server(args.server_bin, tempfile.mkdtemp(dir=work),
                                ["--spec", SPEC_DOCUMENT] if marker == "spec" else [])
                try:
                    problem = run_shell(body, marker, server, work)
                finally:
                    server.stop()
                if problem:
                    failures.append("%s: this shell block failed: %s" % (where, problem))
        finally:
            shutil.rmtree(work, ignore_errors=True)

    for failure in failures:
        print("FAIL " + failure)
    print("snippets: %d swift blocks are Tests/SnippetTests (%d of them compiled on Apple platforms only), "
          "%d Package.swift excerpts match the manifest, %d need another package (not compiled), "
          "%d shell blocks ran against a live server, %d are marked not to run; %d failed"
          % (swift - manifests - external, apple, manifests, external, shell, skipped, len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

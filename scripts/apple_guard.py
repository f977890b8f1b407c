#!/usr/bin/env python3
"""What an Apple build of the package would reject, caught on Linux (run by `make test`, Makefile's apple-guard).

Nothing here is built for an Apple platform, so this reads the sources and `swift package dump-package` instead:

1. imports: a target an Apple platform builds may import `Glibc` or `FoundationNetworking` only under a guard
   (`#if canImport(<it>)`, `#if os(Linux)`, …), and a target an app may link (one in an Apple-claiming product)
   may not import `Testing` or `XCTest` at all: a guard does not help there, as both exist on a Mac with Xcode
   and an app cannot link them.
2. C: an Apple-claiming product may not reach a C or system-library target (libevent, libcrypto), through any
   dependency that applies on an Apple platform.
3. API floor: a use of an API newer than Package.swift's minimums, from the table below, must sit under a guard
   that keeps it off Apple platforms (`#if os(Linux)`) or beside an `@available`/`#available` naming an Apple OS.

Products that claim only Linux and macOS (the server, the command) and the test-only products are declared in
SERVER_PRODUCTS and TEST_ONLY_PRODUCTS; every other product claims every platform of Package.swift. Exits 1,
naming file, line and rule, when anything is found.

    scripts/apple_guard.py [--root DIR] [--dump FILE]   # FILE: saved `swift package dump-package` output
"""
import argparse
import json
import os
import re
import subprocess
import sys

SERVER_PRODUCTS = {"Understudy", "understudy"}
TEST_ONLY_PRODUCTS = {"UnderstudyControlTesting"}
APPLE = {"macos", "ios", "tvos", "watchos", "visionos", "maccatalyst"}
GUARDED_IMPORTS = {"Glibc", "FoundationNetworking"}
TEST_IMPORTS = {"Testing", "XCTest"}
# A condition that keeps a block off every Apple platform.
OFF_APPLE = re.compile(r"os\(Linux\)|canImport\((Glibc|Musl|FoundationNetworking)\)|os\(Windows\)|os\(Android\)")

# (pattern, what it is, the first iOS that has it). Anything at or below the floor (iOS 16) is not listed.
API_TABLE = [
    (re.compile(r"^\s*import\s+Synchronization\b"), "Synchronization (Mutex, Atomic)", 18),
    (re.compile(r"\b(Mutex|Atomic)<"), "Synchronization's Mutex/Atomic", 18),
    (re.compile(r"^\s*import\s+Observation\b"), "Observation", 17),
    (re.compile(r"@Observable\b"), "@Observable", 17),
    (re.compile(r"\bwithObservationTracking\b"), "withObservationTracking", 17),
    (re.compile(r"\bwith(Throwing)?DiscardingTaskGroup\b"), "discarding task groups", 17),
    (re.compile(r"\bTask\.immediate\b|\bInlineArray<|\bSpan<"), "Swift 6.2 runtime API", 26),
    (re.compile(r"\bString\(validating:"), "String(validating:as:)", 18),
    (re.compile(r"\b(TaskExecutor|withTaskExecutorPreference)\b"), "task executors (SE-0417)", 18),
    # A typed-throws function type needs runtime metadata (Swift 6's runtime, iOS 18) as soon as it is wrapped:
    # optional, in a collection or a generic argument. A plain stored closure property needs none.
    (re.compile(r"throws\([^)]*\)[^=\n]*\)\?|(Optional|Array|Set|Dictionary|Result)<[^>\n]*throws\("
                r"|\[[^\]\n]*throws\([^)]*\)[^\]\n]*\]"),
     "a wrapped typed-throws function type", 18),
]
CLOSURE_SIGNATURE = re.compile(r"\bthrows\([^)]*\)(\s*->\s*[^{}]*?)?\s+in\b")
AVAILABLE = re.compile(r"[@#]available\(\s*(iOS|macOS|tvOS|watchOS|visionOS)\b")


def dump(root, path):
    if path:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    out = subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def dependency_names(target):
    """(name, platforms or None) of each dependency that is a target or a product of this package."""
    for dep in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dep:
                name, condition = dep[kind][0], dep[kind][-1]
                yield name, (condition or {}).get("platformNames")


def target_dir(root, target):
    if target.get("path"):
        return os.path.join(root, target["path"])
    base = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(root, base, target["name"])


def swift_files(directory):
    for parent, _, names in sorted(os.walk(directory)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(parent, name)


def is_c_target(root, target):
    if target["type"] in ("system", "binary"):
        return True
    directory = target_dir(root, target)
    return target["type"] == "regular" and os.path.isdir(directory) and not any(swift_files(directory))


def apple_claiming(package):
    """Target name -> the products that bring it to an app on an Apple platform."""
    targets = {t["name"]: t for t in package["targets"]}
    claimed = {}
    for product in package["products"]:
        if product["name"] in SERVER_PRODUCTS | TEST_ONLY_PRODUCTS or "library" not in product["type"]:
            continue
        stack = list(product["targets"])
        while stack:
            name = stack.pop()
            if name not in targets or product["name"] in claimed.setdefault(name, set()):
                continue
            claimed[name].add(product["name"])
            for dep, platforms in dependency_names(targets[name]):
                if platforms is None or APPLE & set(platforms):
                    stack.append(dep)
    return claimed


def guards(lines):
    """For each line, the #if conditions around it, each negated (`!(…)`) inside its #else."""
    stack, result = [], []
    for line in lines:
        text = line.strip()
        if text.startswith("#if "):
            stack.append(text[4:])
        elif text.startswith("#elseif ") and stack:
            stack[-1] = "!(%s) && %s" % (stack[-1], text[8:])
        elif text.startswith("#else") and stack:
            stack[-1] = "!(%s)" % stack[-1]
        elif text.startswith("#endif") and stack:
            stack.pop()
        result.append(list(stack))
    return result


def off_apple(conditions):
    """Whether one of the conditions keeps the block off Apple platforms (`os(Linux)`, or the #else of Darwin)."""
    return any((OFF_APPLE.search(c) and not c.startswith("!")) or re.fullmatch(r"!\(canImport\(Darwin\)\)", c)
               for c in conditions)


def check_file(path, app_linkable, rel):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    problems = []
    around = guards(lines)
    for number, (line, conditions) in enumerate(zip(lines, around), 1):
        where = "%s:%d" % (rel(path), number)
        imported = re.match(r"^\s*(?:@_exported\s+|@preconcurrency\s+)?import\s+(\w+)", line)
        if imported:
            module = imported.group(1)
            if module in GUARDED_IMPORTS and not off_apple(conditions):
                problems.append("%s: imports: `import %s` without `#if canImport(%s)` (Apple platforms have no %s)"
                                % (where, module, module, module))
            if module in TEST_IMPORTS and app_linkable:
                problems.append("%s: imports: `import %s` in a target an app may link (%s); move it to a test-only "
                                "product" % (where, module, app_linkable))
        if off_apple(conditions):
            continue
        code = re.sub(r"//.*$", "", line)   # what a comment says is not a use
        # A closure literal's signature (`{ a, b throws(E) in`) declares no stored function type: what it is stored
        # as is the type it is converted to, checked where that type is written.
        code = CLOSURE_SIGNATURE.sub(" in ", code)
        for pattern, what, ios in API_TABLE:
            if pattern.search(code):
                context = "\n".join(lines[max(0, number - 8):number])
                if not AVAILABLE.search(context):
                    problems.append("%s: API floor: %s needs iOS %d (the floor is iOS 16); guard it with "
                                    "`#if os(Linux)` or `@available`" % (where, what, ios))
    return problems


def check(root, package):
    rel = lambda p: os.path.relpath(p, root)
    targets = {t["name"]: t for t in package["targets"]}
    claimed = apple_claiming(package)
    problems = []
    for name, products in sorted(claimed.items()):
        if name in targets and is_c_target(root, targets[name]):
            problems.append("C: %s reaches the C target %s, which an Apple platform cannot link from an app"
                            % (", ".join(sorted(products)), name))
    for target in package["targets"]:
        if is_c_target(root, target):
            continue
        app_linkable = ", ".join(sorted(claimed.get(target["name"], ())))
        for path in swift_files(target_dir(root, target)):
            problems += check_file(path, app_linkable, rel)
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--dump", help="a saved `swift package dump-package` (default: run it)")
    args = parser.parse_args(argv)
    root = os.path.abspath(args.root)
    package = dump(root, args.dump)
    problems = check(root, package)
    for problem in problems:
        print("apple-guard: " + problem)
    if problems:
        print("apple-guard: %d problem(s) an Apple build would reject" % len(problems))
        return 1
    print("apple-guard: %d targets checked, nothing an Apple build would reject" % len(package["targets"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

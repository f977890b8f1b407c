#!/usr/bin/env python3
"""The package targets the named ones depend on, read from the manifest, in an order they can be built in.

fuzz/build.sh compiles the package with swiftc itself (libFuzzer needs -sanitize=fuzzer on every module), so it
asks here which modules there are rather than listing them: a target added to Package.swift is built for fuzzing
with no edit. Prints one line per target, dependencies first:

    swift NAME PATH          a Swift module
    c NAME PATH              a C target (its headers in PATH/include)
    system NAME PATH PKG     a system library (its module map in PATH, its flags from pkg-config PKG)

`--with-roots` prints the named targets too (last); by default only what they depend on. `--manifest FILE` reads
`swift package dump-package`'s JSON from FILE (build.sh dumps it once) instead of asking SwiftPM.
"""
import json
import pathlib
import subprocess
import sys


def manifest(path):
    if path:
        text = pathlib.Path(path).read_text()
    else:
        text = subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout
    return {target["name"]: target for target in json.loads(text)["targets"]}


def dependency_names(target):
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency:
                names.append(dependency[kind][0])
    return names


def main(arguments):
    with_roots = "--with-roots" in arguments
    manifest_path = None
    if "--manifest" in arguments:
        at = arguments.index("--manifest")
        manifest_path = arguments[at + 1] if at + 1 < len(arguments) else sys.exit("--manifest needs a FILE")
        arguments = arguments[:at] + arguments[at + 2:]
    roots = [name for name in arguments if not name.startswith("--")]
    if not roots:
        sys.exit("usage: fuzz/targets.py [--with-roots] [--manifest FILE] TARGET...")
    targets = manifest(manifest_path)
    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        if name not in targets:
            sys.exit(f"fuzz/targets.py: {name} is not a target of this package")
        for dependency in dependency_names(targets[name]):
            visit(dependency)
        order.append(name)

    for root in roots:
        visit(root)
    for name in order:
        if name in roots and not with_roots:
            continue
        target = targets[name]
        path = target.get("path") or f"Sources/{name}"
        if target["type"] == "system":
            print("system", name, path, target.get("pkgConfig") or "")
        elif any(pathlib.Path(path).rglob("*.c")):
            print("c", name, path)
        else:
            print("swift", name, path)


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""A document spread over many files, bundled into one for schemathesis, as a publisher's bundler would.

DigitalOcean's document is hundreds of files and writes `$ref` where OpenAPI does not allow one: every operation
(`get: {$ref: resources/…/x.yml}`) and some `properties` maps (`properties: {$ref: attributes.yml#/…}`). Its
publisher bundles it (Redocly) before anyone reads it, reading each such `$ref` in. `understudy --spec` follows them
as they are; schemathesis does not (operations with no parameters or responses, then a crash on a `properties` that
is a string). This writes the bundle to OUTPUT, never beside the original: path items, operations and `properties`
maps read in where they are written, every other thing another file holds copied once under the root's
`x-understudy-bundle` and referred to from there, and header parameters OpenAPI says to ignore left out. A
`required` list that repeats a name (a document error; OpenAI's has some) is written once. A document that needs none of this is not copied: the script prints its
own path.

    scripts/spec-bundle.py DOCUMENT OUTPUT   prints the path to hand to schemathesis
"""
import json
import pathlib
import re
import sys
import urllib.parse

import yaml

from spec_yaml import CoreLoader, string_keys

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


class Bundle:
    def __init__(self, main):
        self.main = main
        self.files = {}
        self.bundled = {}

    def read(self, path):
        if path not in self.files:
            text = path.read_text(encoding="utf-8")
            self.files[path] = json.loads(text) if path.suffix == ".json" else string_keys(yaml.load(text, Loader=CoreLoader))
        return self.files[path]

    def target(self, reference, file):
        location, _, fragment = reference.partition("#")
        path = (file.parent / urllib.parse.unquote(location)).resolve() if location else file
        return path, fragment

    def lookup(self, path, fragment):
        node = self.read(path)
        for token in [t for t in fragment.split("/") if t]:
            token = urllib.parse.unquote(token).replace("~1", "/").replace("~0", "~")
            node = node[int(token)] if isinstance(node, list) else node[token]
        return node

    def inline(self, node, file):
        """A `$ref` where OpenAPI wants the thing itself: read in, with its own references rewritten from its file."""
        seen = set()
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and "://" not in node["$ref"]:
            path, fragment = self.target(node["$ref"], file)
            if (path, fragment) in seen:
                break
            seen.add((path, fragment))
            node, file = self.lookup(path, fragment), path
        return node, file

    def ignored(self, parameter, file):
        """A header parameter OpenAPI says to ignore (Accept, Content-Type, Authorization): DigitalOcean documents
        Content-Type with an enum, which schemathesis then sends over the body's own media type."""
        content, _ = self.inline(parameter, file)
        return isinstance(content, dict) and content.get("in") == "header" \
            and str(content.get("name", "")).lower() in ("accept", "content-type", "authorization")

    def visit(self, node, file, key=None):
        if isinstance(node, list):
            items = [item for item in node if not self.ignored(item, file)] if key == "parameters" else node
            return [self.visit(item, file) for item in items]
        if not isinstance(node, dict):
            return node
        reference = node.get("$ref")
        if isinstance(reference, str) and "://" not in reference:
            if key in ("properties", "paths-item", "operation"):
                content, origin = self.inline(node, file)
                if content is not node:
                    return self.visit(content, origin, key)
            path, fragment = self.target(reference, file)
            rest = {k: self.visit(v, file) for k, v in node.items() if k != "$ref"}
            if path == self.main:
                return {"$ref": "#" + fragment, **rest}
            name = re.sub(r"[^A-Za-z0-9]+", "_", f"{path.relative_to(self.main.parent) if path.is_relative_to(self.main.parent) else path}#{fragment}")
            if name not in self.bundled:
                self.bundled[name] = None
                self.bundled[name] = self.visit(self.lookup(path, fragment), path)
            return {"$ref": "#/x-understudy-bundle/" + name, **rest}
        visited = {}
        for k, v in node.items():
            if key == "paths":
                visited[k] = self.visit(v, file, "paths-item")
            elif key == "paths-item" and k in METHODS:
                visited[k] = self.visit(v, file, "operation")
            elif k == "parameters" and isinstance(v, list):
                visited[k] = self.visit(v, file, "parameters")
            elif k == "properties" and isinstance(v, dict) and "$ref" in v:
                visited[k] = self.visit(v, file, "properties")
            elif k == "properties" and isinstance(v, dict):
                # A map of names: a property called `$ref` is a name, not a reference.
                visited[k] = {name: self.visit(schema, file) for name, schema in v.items()}
            else:
                visited[k] = self.visit(v, file, "paths" if (node is self.files.get(self.main) and k == "paths") else None)
        return visited


def unique_required(node):
    """The tree with each `required` list's repeats dropped (OpenAI's ContainerResource names id, name, created_at
    and status twice, which JSON Schema forbids and schemathesis refuses to read past); whether any was."""
    changed = False
    if isinstance(node, dict):
        required = node.get("required")
        if isinstance(required, list) and all(isinstance(item, str) for item in required) \
                and len(set(required)) != len(required):
            node["required"] = list(dict.fromkeys(required))
            changed = True
        for value in node.values():
            changed = unique_required(value) or changed
    elif isinstance(node, list):
        for item in node:
            changed = unique_required(item) or changed
    return changed


def references_out(node):
    if isinstance(node, dict):
        reference = node.get("$ref")
        if isinstance(reference, str) and not reference.startswith("#"):
            return True
        return any(references_out(value) for value in node.values())
    if isinstance(node, list):
        return any(references_out(item) for item in node)
    return False


def main():
    source, output = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2])
    bundle = Bundle(source)
    document = bundle.read(source)
    if not references_out(document):
        if unique_required(document):
            # Its references all stay within it (`#…`): the copy reads the same from anywhere.
            output.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8")
            print(output)
        else:
            print(source)
        return
    bundled = bundle.visit(document, source)
    unique_required(bundled)
    bundled["x-understudy-bundle"] = bundle.bundled
    output.write_text(yaml.safe_dump(bundled, sort_keys=False, allow_unicode=True), encoding="utf-8")
    print(output)


if __name__ == "__main__":
    main()

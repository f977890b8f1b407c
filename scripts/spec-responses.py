#!/usr/bin/env python3
"""Every response `understudy --spec` generates, checked by an independent validator.

For each operation of a document and each response it documents with a JSON schema, asks a live server for that
response with `Prefer: code=…, dynamic=true, seed=…` (three seeds), and for the static answer when the media type has
no example (the static answer of a media type with examples is its first example, the document's own words), then
validates each body with openapi-schema-validator (OAS30Validator for 3.0 documents, OAS31Validator for 3.1 and 3.2)
against its schema, references resolved across the document's files. The server must run with `--validate off
--stateless` so that a request whose parameters are placeholders still reaches its response.

    scripts/spec-responses.py DOCUMENT URL [--seed N]
"""
import argparse
import functools
import json
import pathlib
import sys
import urllib.error
import urllib.parse
import urllib.request

import yaml
from jsonschema import Draft4Validator, validators
from openapi_schema_validator import OAS30Validator, OAS31Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from spec_yaml import CoreLoader, string_keys


@functools.lru_cache(maxsize=None)
def load(path):
    """The tree of a file, read once (a document's `$ref`s name the same files over and over)."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    # YAML 1.1's resolver would read `on`, `2024-01-01` and `200:` as other types; the server reads JSON's types.
    return json.loads(text) if path.endswith(".json") else string_keys(yaml.load(text, Loader=CoreLoader))


def retrieve(uri):
    parsed = urllib.parse.urlparse(uri)
    if parsed.scheme != "file":
        raise LookupError(uri)
    return Resource.from_contents(load(urllib.parse.unquote(parsed.path)), default_specification=DRAFT202012)


def escape(token):
    return str(token).replace("~", "~0").replace("/", "~1")


def resolve(node, base, pointer):
    """A path item or response with its `$ref` followed (across files): the object, its file and its pointer."""
    while isinstance(node, dict) and "$ref" in node:
        target = urllib.parse.urljoin(base, node["$ref"])
        location, _, fragment = target.partition("#")
        tree = load(urllib.parse.unquote(urllib.parse.urlparse(location).path))
        for token in [t for t in fragment.split("/") if t]:
            tree = tree[token.replace("~1", "/").replace("~0", "~")]
        node, base, pointer = tree, location, fragment
    return node, base, pointer


def bound(keyword, exclusive, validator_class):
    """`minimum` or `maximum` read as Draft 4 reads it when its exclusive keyword is a boolean (OpenAPI 3.0's form)."""
    def check(validator, value, instance, schema):
        if isinstance(schema.get(exclusive), bool):
            yield from Draft4Validator.VALIDATORS[keyword](validator, value, instance, schema)
        else:
            yield from validator_class.VALIDATORS[keyword](validator, value, instance, schema)
    return check


def unless_nullable_null(check):
    """A keyword passed over for null where the schema says `nullable: true` (OpenAPI 3.0's reading)."""
    def wrapped(validator, value, instance, schema):
        if not (instance is None and schema.get("nullable") is True):
            yield from check(validator, value, instance, schema)
    return wrapped


def unless_boolean(check):
    """A 2020-12 exclusive bound, passed over when it is OpenAPI 3.0's boolean (read by `minimum`/`maximum`)."""
    def wrapped(validator, value, instance, schema):
        if not isinstance(value, bool):
            yield from check(validator, value, instance, schema)
    return wrapped


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("document")
    parser.add_argument("url")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain-discriminators", action="store_true",
                        help="read oneOf/anyOf/allOf as JSON Schema does, leaving the discriminator out (a document "
                             "whose discriminator values name no schema, as Spotify's)")
    parser.add_argument("--3.0-keywords", dest="keywords30", action="store_true",
                        help="read a 3.1 document's OpenAPI 3.0 keywords as 3.0 does: `nullable: true`, a boolean "
                             "`exclusiveMinimum`/`exclusiveMaximum` (the server's --spec-tolerate 3.0-keywords)")
    options = parser.parse_args()
    path = pathlib.Path(options.document).resolve()
    root_uri = path.as_uri()
    spec = load(str(path))
    version = str(spec.get("openapi", ""))
    validator_class = OAS30Validator if version.startswith("3.0") else OAS31Validator
    if options.keywords30 and validator_class is OAS31Validator:
        # `type` lets null through where `nullable: true` is written (3.1's "null" type still read); a boolean
        # exclusive bound makes `minimum`/`maximum` exclusive, as Draft 4 (and OpenAPI 3.0) reads it.
        validator_class = validators.extend(validator_class, {
            "type": unless_nullable_null(validator_class.VALIDATORS["type"]),
            "minimum": bound("minimum", "exclusiveMinimum", validator_class), "maximum": bound("maximum", "exclusiveMaximum", validator_class),
            "exclusiveMinimum": unless_boolean(validator_class.VALIDATORS["exclusiveMinimum"]),
            "exclusiveMaximum": unless_boolean(validator_class.VALIDATORS["exclusiveMaximum"])})
    if options.plain_discriminators:
        validator_class = validators.extend(validator_class, {keyword: Draft4Validator.VALIDATORS[keyword]
                                                              for keyword in ("oneOf", "anyOf", "allOf")})
    if options.keywords30 and version.startswith("3.1"):
        # `nullable: true` lets null through the whole schema, its compositions, `$ref` and `enum` too, as the
        # server reads it (schemathesis writes it as anyOf [schema, {type: null}]).
        validator_class = validators.extend(validator_class, {
            keyword: unless_nullable_null(validator_class.VALIDATORS[keyword])
            for keyword in ("$ref", "allOf", "anyOf", "oneOf", "enum", "const", "not") if keyword in validator_class.VALIDATORS})
    registry = Registry(retrieve=retrieve).with_resource(root_uri, Resource.from_contents(spec, default_specification=DRAFT202012))
    checked = failures = 0
    for template, item in (spec.get("paths") or {}).items():
        item, item_base, item_pointer = resolve(item, root_uri, "/paths/" + escape(template))
        for method in ("get", "put", "post", "delete", "patch"):
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            # An operation written as a `$ref` to another file (DigitalOcean's, which OpenAPI does not allow) is read
            # from there, as the server reads it.
            operation, operation_base, operation_pointer = resolve(operation, item_base, f"{item_pointer}/{method}")
            target = template
            for piece in template.split("/"):
                if piece.startswith("{") and piece.endswith("}"):
                    target = target.replace(piece, "1")
            for code, response in (operation.get("responses") or {}).items():
                if code == "default" or not str(code)[:1].isdigit():
                    continue
                response, base, pointer = resolve(response, operation_base,
                                                  f"{operation_pointer}/responses/{escape(code)}")
                media = ((response or {}).get("content") or {}).get("application/json")
                if not isinstance(media, dict) or "schema" not in media:
                    continue
                status = int(str(code).upper().replace("X", "0"))
                preferences = [f"code={status}, dynamic=true, seed={options.seed + n}" for n in range(3)]
                if "example" not in media and not media.get("examples"):
                    preferences.append(f"code={status}")
                # The schema as the document holds it, so its references resolve against its own file.
                schema = {"$ref": f"{base}#{pointer}/content/application~1json/schema"}
                for preference in preferences:
                    request = urllib.request.Request(options.url + target, method=method.upper(),
                                                     headers={"Prefer": preference, "Accept": "application/json"})
                    try:
                        with urllib.request.urlopen(request, timeout=30) as reply:
                            body, got = reply.read(), reply.status
                    except urllib.error.HTTPError as error:
                        body, got = error.read(), error.code
                    checked += 1
                    if got != status:
                        failures += 1
                        print(f"FAIL {method.upper()} {template} [{preference}]: answered {got}")
                        continue
                    try:
                        instance = json.loads(body) if body else None
                        errors = [error.message for error in validator_class(schema, registry=registry).iter_errors(instance)]
                    except Exception as error:  # noqa: BLE001 - any failure to read or validate is named
                        errors = [repr(error)]
                    if errors:
                        failures += 1
                        print(f"FAIL {method.upper()} {template} [{preference}]: {errors[0][:300]}")
    print(f"{options.document}: {checked} generated responses checked with openapi-schema-validator, {failures} invalid")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

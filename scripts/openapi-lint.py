#!/usr/bin/env python3
"""Static checks that keep openapi/openapi.yaml usable by swift-openapi-generator.

    scripts/openapi-lint.py [SPEC]      # default: openapi/openapi.yaml; exit status 1 on any finding

Each check is a construct that the generator (1.13) rejects, skips with a warning, or turns into a client that
behaves differently from the server. The generator itself is not run here: this is the cheap stand-in for it in
scripts/contract.sh. Needs PyYAML (scripts/contract-requirements.txt).

  1. `$ref` into a component (`#/components/schemas/X/properties/y`): the generator resolves only refs naming a
     whole component and leaves the value untyped. Make the target a named component and refer to that.
  2. A range (`4XX`) listed before a specific code of its class (`'429'`): the generated client switches over
     the codes in document order, so every 429 becomes `.clientError(429)`. Specific codes first. (`default`
     may stand anywhere: the generator moves it last.)
  3. Integer bounds (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`) that are not
     whole numbers within a signed 64-bit integer: the generator's parser rejects the whole document.
  4. `not`: unsupported, and the generator drops the schema that uses it (a request body disappears).
  5. A schema of type `null` alone (`anyOf: [{$ref: X}, {type: 'null'}]`): unsupported and skipped, so the
     property vanishes and a closed object then fails to decode. Use `type: [X, 'null']`, or a named nullable
     schema.
  6. A `required` name missing from the same schema's `properties`: the generator skips it with a warning, so
     the client neither decodes nor sends it. Declare the property (an untyped `{description: ...}` is fine).

`if`/`then`/`else` subschemas are not checked: the generator ignores them (the spec states 64-bit bounds there).
"""

import re
import sys

import yaml

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
WHOLE_COMPONENT_REF = re.compile(r"^#/components/[^/]+/[^/]+$")
RANGE_CODE = re.compile(r"^[1-5]XX$", re.IGNORECASE)
SPECIFIC_CODE = re.compile(r"^[1-5][0-9][0-9]$")
INTEGER_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
# Keywords whose values are one subschema, a list of them, or a map of them. `if`/`then`/`else` are left out on
# purpose (see above).
# `not` is left out too: it is reported, and the generator drops everything under it.
ONE_SCHEMA = ("items", "contains", "additionalProperties", "propertyNames", "unevaluatedItems",
              "unevaluatedProperties")
SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_MAP = ("properties", "patternProperties", "$defs", "dependentSchemas")

findings = []


def report(path, message):
    findings.append(f"{path}: {message}")


def pointer(base, *parts):
    """`base` (a JSON pointer already) extended by `parts`, escaped."""
    return "/".join([base] + [str(part).replace("~", "~0").replace("/", "~1") for part in parts])


def types_of(schema):
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    return list(kind) if isinstance(kind, list) else []


def check_schema(schema, path):
    if not isinstance(schema, dict):
        return
    if "$ref" in schema:
        return  # the ref itself is checked by check_refs; its target is checked where it is defined

    types = types_of(schema)
    if "integer" in types:
        for key in INTEGER_BOUNDS:
            value = schema.get(key)
            if value is None or isinstance(value, bool):
                continue
            whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
            if not whole or not INT64_MIN <= int(value) <= INT64_MAX:
                report(f"{path}/{key}", f"integer bound {value!r} is not a whole number within a signed 64-bit "
                       "integer: swift-openapi-generator rejects the document (state a larger bound as "
                       "`if: {type: integer, minimum: N}` + `then: false`)")

    if "not" in schema:
        report(f"{path}/not", "`not` is unsupported by swift-openapi-generator, which drops this schema; "
               "spell the alternatives out (oneOf of closed objects, enums)")

    if types == ["null"]:
        report(path, "a schema of type `null` alone is unsupported by swift-openapi-generator (skipped); make "
               "the other schema nullable instead (`type: [X, 'null']`)")

    required = schema.get("required")
    if isinstance(required, list):
        properties = schema.get("properties") or {}
        for name in required:
            if name not in properties:
                report(f"{path}/required", f"'{name}' is required but not in `properties`: "
                       "swift-openapi-generator skips it; declare the property")

    for key in ONE_SCHEMA:
        if isinstance(schema.get(key), dict):
            check_schema(schema[key], pointer(path, key))
    for key in SCHEMA_LIST:
        for index, sub in enumerate(schema.get(key) or []):
            check_schema(sub, pointer(path, key, index))
    for key in SCHEMA_MAP:
        for name, sub in (schema.get(key) or {}).items():
            check_schema(sub, pointer(path, key, name))


def check_content(content, path):
    for media, media_object in (content or {}).items():
        if isinstance(media_object, dict) and "schema" in media_object:
            check_schema(media_object["schema"], pointer(path, media, "schema"))


def check_parameter_like(item, path):
    """A parameter or a header: a schema, or content."""
    if not isinstance(item, dict):
        return
    if "schema" in item:
        check_schema(item["schema"], pointer(path, "schema"))
    check_content(item.get("content"), pointer(path, "content"))


def check_response(response, path):
    if not isinstance(response, dict):
        return
    for name, header in (response.get("headers") or {}).items():
        check_parameter_like(header, pointer(path, "headers", name))
    check_content(response.get("content"), pointer(path, "content"))


def check_response_order(responses, path):
    ranges_seen = []
    for code in responses:
        code = str(code)
        if RANGE_CODE.match(code):
            ranges_seen.append(code.upper())
        elif SPECIFIC_CODE.match(code) and f"{code[0]}XX" in ranges_seen:
            report(pointer(path, code), f"listed after {code[0]}XX: a generated client matches the range "
                   f"first and never sees {code}; put specific codes before ranges")


def check_refs(node, path):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#") and not WHOLE_COMPONENT_REF.match(ref):
            report(pointer(path, "$ref"), f"{ref} points inside a component: swift-openapi-generator "
                   "leaves it untyped; make the target a named component (#/components/<kind>/<Name>)")
        for key, value in node.items():
            check_refs(value, pointer(path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            check_refs(value, pointer(path, index))


def check_operation(operation, path):
    for index, parameter in enumerate(operation.get("parameters") or []):
        check_parameter_like(parameter, pointer(path, "parameters", index))
    body = operation.get("requestBody")
    if isinstance(body, dict):
        check_content(body.get("content"), pointer(path, "requestBody", "content"))
    responses = operation.get("responses") or {}
    check_response_order(responses, pointer(path, "responses"))
    for code, response in responses.items():
        check_response(response, pointer(path, "responses", code))


def main():
    spec_path = sys.argv[1] if len(sys.argv) > 1 else "openapi/openapi.yaml"
    with open(spec_path, encoding="utf-8") as file:
        document = yaml.safe_load(file)

    check_refs(document, "#")
    for route, item in (document.get("paths") or {}).items():
        if not isinstance(item, dict):
            continue
        base = pointer("#", "paths", route)
        for index, parameter in enumerate(item.get("parameters") or []):
            check_parameter_like(parameter, pointer(base, "parameters", index))
        for method in METHODS:
            if isinstance(item.get(method), dict):
                check_operation(item[method], pointer(base, method))

    components = document.get("components") or {}
    for name, schema in (components.get("schemas") or {}).items():
        check_schema(schema, pointer("#", "components", "schemas", name))
    for section in ("parameters", "headers"):
        for name, item in (components.get(section) or {}).items():
            check_parameter_like(item, pointer("#", "components", section, name))
    for name, response in (components.get("responses") or {}).items():
        check_response(response, pointer("#", "components", "responses", name))
    for name, body in (components.get("requestBodies") or {}).items():
        if isinstance(body, dict):
            check_content(body.get("content"), pointer("#", "components", "requestBodies", name, "content"))

    for finding in findings:
        print(f"{spec_path}: {finding}")
    if findings:
        print(f"openapi-lint: {len(findings)} problem(s) that swift-openapi-generator would warn about or "
              "reject (see scripts/openapi-lint.py)")
        return 1
    print(f"openapi-lint: {spec_path}: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

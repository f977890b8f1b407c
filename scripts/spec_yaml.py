"""YAML read as `understudy --spec` reads it (YAML 1.2's core schema), for the spec-conformance scripts.

PyYAML is YAML 1.1: it reads `on` and `yes` as booleans and `2024-01-01` as a date, which the server and JSON read
as strings; and `200:` as an integer key, which the server reads as "200".
"""
import json
import re

import yaml


def string_keys(node):
    """The tree with every mapping key a string, as JSON has them and the server reads them (`200:` is "200")."""
    if isinstance(node, dict):
        return {(json.dumps(key) if isinstance(key, bool) or key is None else str(key)): string_keys(value)
                for key, value in node.items()}
    if isinstance(node, list):
        return [string_keys(item) for item in node]
    return node


class CoreLoader(yaml.SafeLoader):
    """PyYAML with timestamps and YAML 1.1's booleans left as strings, as the server (YAML 1.2's core schema) reads."""


CoreLoader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                 list("tTfF"))



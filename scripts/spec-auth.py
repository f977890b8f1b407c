#!/usr/bin/env python3
"""The `-H` flags that give schemathesis credentials a document's security schemes accept, for its positive pass.

`understudy --spec` checks that credentials are present (as Prism does), never what they are: any bearer token,
Basic pair or API key passes. So one made-up value per header-borne scheme is enough for every request to be valid.

    scripts/spec-auth.py DOCUMENT   prints one `-H 'Name: value'` argument per line
"""
import json
import pathlib
import sys

import yaml


def main():
    path = pathlib.Path(sys.argv[1])
    text = path.read_text(encoding="utf-8")
    document = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    schemes = ((document.get("components") or {}).get("securitySchemes") or {})
    headers = {}
    for scheme in schemes.values():
        if not isinstance(scheme, dict) or "$ref" in scheme:
            continue
        kind = scheme.get("type")
        if kind == "apiKey" and scheme.get("in") == "header":
            headers[scheme.get("name")] = "understudy-key"
        elif kind == "apiKey" and scheme.get("in") == "cookie":
            headers["Cookie"] = f"{scheme.get('name')}=understudy-key"
        elif kind == "http" and str(scheme.get("scheme", "")).lower() == "basic":
            headers.setdefault("Authorization", "Basic dW5kZXJzdHVkeTpwYXNz")
        elif kind in ("http", "oauth2", "openIdConnect"):
            headers["Authorization"] = "Bearer understudy-token"
    for name, value in headers.items():
        if name:
            print("-H")
            print(f"{name}: {value}")


if __name__ == "__main__":
    main()

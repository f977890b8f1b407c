#!/usr/bin/env bash
# The venv .venv (gitignored) with scripts/contract-requirements.txt: schemathesis, the spec validators, PyYAML.
# Made once, checked on every call (pip is quick when everything is there). Used by contract.sh and
# spec-conformance.sh; a fresh machine has python3 and pip only.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v timeout >/dev/null 2>&1 || timeout() { python3 scripts/timeout.py "$@"; }
VENV=.venv
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV" || { echo "cannot create $VENV"; exit 1; }
fi
timeout 600 "$VENV/bin/pip" install --quiet --disable-pip-version-check -r scripts/contract-requirements.txt \
    || { echo "cannot install scripts/contract-requirements.txt into $VENV"; exit 1; }

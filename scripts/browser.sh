#!/usr/bin/env bash
# The browser check (issue #15): a hostile page in headless Chromium tries to steer a live Understudy and fails.
#
#   scripts/browser.sh      # after `swift build --product understudy`; `make browser` does both
#
# Uses Debian's chromium and chromium-driver (scripts/install-deps.sh browser installs them) and Selenium from the
# venv .venv-browser (gitignored), pinned in scripts/browser-requirements.txt. Selenium is given
# /usr/bin/chromedriver and SE_OFFLINE=true, so nothing is downloaded. A missing browser fails the check; it is
# never skipped. Settings (environment): UNDERSTUDY_BIN (default .build/debug/understudy), BROWSER_SCREENSHOT
# (default .build/browser/hostile-page.png).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${UNDERSTUDY_BIN:-.build/debug/understudy}
VENV=.venv-browser
SCREENSHOT=${BROWSER_SCREENSHOT:-.build/browser/hostile-page.png}
export SE_OFFLINE=true

for tool in chromium chromedriver; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "browser: $tool is missing (scripts/install-deps.sh browser installs Debian's chromium and chromium-driver)"
        echo "browser: 0 passed, 1 failed"
        exit 1
    fi
done
if [ ! -x "$BIN" ]; then
    echo "browser: no server binary at $BIN (build it, or set UNDERSTUDY_BIN)"
    exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV" || { echo "cannot create $VENV"; exit 1; }
fi
timeout 600 "$VENV/bin/pip" install --quiet --disable-pip-version-check -r scripts/browser-requirements.txt \
    || { echo "cannot install scripts/browser-requirements.txt into $VENV"; exit 1; }
timeout 300 "$VENV/bin/python" Tests/Browser/hostile_page.py --server-bin "$BIN" --screenshot "$SCREENSHOT"

#!/usr/bin/env bash
# The browser check: a hostile page in headless Chromium tries to steer a live Understudy and fails (issue #15,
# Tests/Browser/hostile_page.py), the control room is driven as a presenter would (issue #12,
# Tests/Browser/control_room.py), it loads over HTTPS with the local CA in Chromium's NSS database (issue #24,
# Tests/Browser/https_control_room.py), and Chromium's own WebSocket echoes through /ws/echo over ws:// and wss://
# (issue #39, Tests/Browser/chromium_websockets.py), and Python's websockets and Node's ws see each socket fault as documented
# (Tests/Browser/websocket_clients.py). Each suite prints its own line; the last line is the total,
# `browser: N passed, M failed`.
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
# timeout(1) is GNU coreutils'; macOS has none, so scripts/timeout.py stands in there.
command -v timeout >/dev/null 2>&1 || timeout() { python3 scripts/timeout.py "$@"; }

BIN=${UNDERSTUDY_BIN:-.build/debug/understudy}
VENV=.venv-browser
SCREENSHOT=${BROWSER_SCREENSHOT:-.build/browser/hostile-page.png}
export SE_OFFLINE=true

for tool in chromium chromedriver certutil node; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "browser: $tool is missing (scripts/install-deps.sh browser installs Debian's chromium, chromium-driver and libnss3-tools)"
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
PASSED=0
FAILED=0
STATUS=0
# run NAME COMMAND...: one suite; its `browser: N passed, M failed` line is renamed to NAME and added up.
run() {
    local name=$1 out
    shift
    out=$(mktemp)
    # A failing suite must not stop the ones after it (set -e would end the script at the failed pipeline).
    local code
    set +e
    timeout 300 "$@" 2>&1 | tee "$out" | sed "s/^browser: /$name: /"
    code=${PIPESTATUS[0]}
    set -e
    [ "$code" -eq 0 ] || STATUS=1
    local line
    line=$(grep -E '^browser: [0-9]+ passed, [0-9]+ failed$' "$out" | tail -1)
    rm -f "$out"
    if [ -z "$line" ]; then
        FAILED=$((FAILED + 1))
        return
    fi
    PASSED=$((PASSED + $(echo "$line" | sed -E 's/^browser: ([0-9]+) passed.*/\1/')))
    FAILED=$((FAILED + $(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')))
}
run hostile_page "$VENV/bin/python" Tests/Browser/hostile_page.py --server-bin "$BIN" --screenshot "$SCREENSHOT"
run control_room "$VENV/bin/python" Tests/Browser/control_room.py --server-bin "$BIN" --screenshots "$(dirname "$SCREENSHOT")"
run https_control_room "$VENV/bin/python" Tests/Browser/https_control_room.py --server-bin "$BIN"
run chromium_websockets "$VENV/bin/python" Tests/Browser/chromium_websockets.py --server-bin "$BIN"
run websocket_clients "$VENV/bin/python" Tests/Browser/websocket_clients.py --server-bin "$BIN"
echo "browser: $PASSED passed, $FAILED failed"
[ "$STATUS" -eq 0 ] && [ "$FAILED" -eq 0 ]

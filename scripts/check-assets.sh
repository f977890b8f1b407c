#!/usr/bin/env bash
# The control room's script files (Sources/Understudy/ControlRoom/Assets/*.js) parse as ES modules: each file on its
# own, which names the file at fault, then the module the server serves, its parts joined in the order
# ControlRoomAssets+Script.swift gives, which catches a name two parts both declare. `node --check` parses and runs
# nothing. The last line is `control-room assets: N passed, M failed`; any failure exits non-zero.
#
#   scripts/check-assets.sh      # `make unit` runs it
#
# Needs node (Debian's nodejs; installed through scripts/install-deps.sh when missing). No linter: Debian's eslint is
# years behind the language and pulls in dozens of packages, and its tidy flags valid HTML5 (inputmode).
set -euo pipefail
cd "$(dirname "$0")/.."

ASSETS=Sources/Understudy/ControlRoom/Assets
ORDER=Sources/Understudy/ControlRoom/ControlRoomAssets+Script.swift
command -v node >/dev/null 2>&1 || scripts/install-deps.sh nodejs

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# check NAME FILE: node --check on FILE as an ES module (a .mjs copy), its messages naming NAME instead of the copy
# (and left in \$output).
check() {
  local name=$1 file=$2 copy="$work/check.mjs"
  cp "$file" "$copy"
  if output=$(node --check "$copy" 2>&1); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    output=${output//"$copy"/$name}
    echo "check-assets: $name is not a valid ES module:" >&2
    printf '%s\n' "$output" >&2
  fi
}

for file in "$ASSETS"/*.js; do
  check "$file" "$file"
done

# The served module: the parts in ControlRoomAssets.scriptParts' order (`PackageResources.script_demo_client_js` is
# script-demo-client.js), each followed by a newline but the last.
parts=$(sed -n 's/^ *PackageResources\.\(script_[a-z_]*\)_js,$/\1/p' "$ORDER" | tr _ - | sed 's/$/.js/')
if [ -z "$parts" ]; then
  echo "check-assets: found no PackageResources.script_*_js parts in $ORDER" >&2
  failed=$((failed + 1))
else
  joined="$work/control-room.js"
  : >"$joined"
  starts=()
  first=1
  for part in $parts; do
    if [ ! -f "$ASSETS/$part" ]; then
      echo "check-assets: $ORDER names $part, which is not in $ASSETS" >&2
      failed=$((failed + 1))
      continue
    fi
    if [ -z "$first" ]; then printf '\n' >>"$joined"; fi
    # Where each part starts in the module, to name the part a message's line number falls in.
    starts+=("$(( $(wc -l <"$joined") + 1 )) $ASSETS/$part")
    cat "$ASSETS/$part" >>"$joined"
    first=""
  done
  before=$failed
  check "control-room.js" "$joined"
  if [ "$failed" -gt "$before" ]; then
    line=$(grep -m1 -o '^control-room.js:[0-9]*' <<<"$output" | cut -d: -f2 || true)
    for start in "${starts[@]}"; do
      if [ -n "$line" ] && [ "${start%% *}" -le "$line" ]; then at="${start#* }:$((line - ${start%% *} + 1))"; fi
    done
    echo "check-assets: the served module control-room.js is the parts of $ORDER joined; its line $line is ${at:-unknown}" >&2
  fi
  # An id given twice in the page: getElementById finds the first, so a panel's script would drive another's element.
  duplicates=$(grep -o ' id="[^"]*"' "$ASSETS/control-room.html" | sort | uniq -d | tr -d ' ' || true)
  if [ -n "$duplicates" ]; then
    echo "check-assets: control-room.html gives these ids to more than one element: $(echo $duplicates)" >&2
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
  # A part left out of the list would be compiled into the binary and never served.
  for file in "$ASSETS"/script-*.js; do
    if ! grep -qx "${file##*/}" <<<"$parts"; then
      echo "check-assets: $file is not one of ControlRoomAssets.scriptParts in $ORDER" >&2
      failed=$((failed + 1))
    fi
  done
fi

echo "control-room assets: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

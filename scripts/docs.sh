#!/usr/bin/env bash
# make docs: static HTML documentation of every library, with the toolchain's own docc (no plugin package).
#
#   scripts/docs.sh        # after `swift build` (make docs builds first)
#
# For each library it extracts the public symbol graph from the modules `swift build` already compiled
# (swift symbolgraph-extract reads .build's modules and writes only under .build/docs, so the normal build is not
# touched), then converts Sources/<Target>/<Target>.docc with it into .build/docs/<Target>.doccarchive, linked as
# .build/docs/<Target> to be served from /<Target>/ (`python3 -m http.server -d .build/docs`, then /index.html).
# Any warning fails it: a ``Symbol`` or <doc:Article> link that does not resolve, a missing image, a bad topic.
#
# Settings (environment): SWIFT (default swift), SWIFT_BUILD_FLAGS (the flags the modules were built with, for
# --show-bin-path), DOCC (default: the docc beside the swift driver; `xcrun docc` on macOS).
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
read -r -a BUILD_FLAGS <<<"${SWIFT_BUILD_FLAGS:-}"
TARGETS=(Understudy UnderstudyFaultSpec UnderstudyRecording UnderstudyClient UnderstudyDummyJSON UnderstudyTesting UnderstudyControl UnderstudyControlTesting)
OUT=.build/docs
GRAPHS=$OUT/symbol-graphs

if [ -z "${DOCC:-}" ]; then
    DOCC=$(dirname "$(readlink -f "$(command -v "$SWIFT")")")/docc
    if [ ! -x "$DOCC" ] && command -v xcrun >/dev/null 2>&1; then DOCC=$(xcrun --find docc); fi
fi
[ -x "$DOCC" ] || { echo "docs: no docc at $DOCC (it ships with the Swift toolchain; set DOCC)"; exit 1; }

BIN=$("$SWIFT" build --show-bin-path "${BUILD_FLAGS[@]}")
TRIPLE=$("$SWIFT" -print-target-info | python3 -c 'import sys,json;print(json.load(sys.stdin)["target"]["triple"])')
# The C modules the libraries import (libevent, libcrypto, the header-line writer, …): their module maps, wherever
# the package keeps them, and the ones SwiftPM generates in the build folder.
CLANG=()
# On macOS the extractor needs the SDK the modules were built against.
if command -v xcrun >/dev/null 2>&1; then CLANG+=(-sdk "$(xcrun --show-sdk-path)"); fi
while IFS= read -r map; do
    dir=$(cd "$(dirname "$map")" && pwd)
    CLANG+=(-Xcc "-fmodule-map-file=$dir/module.modulemap" -Xcc "-I$dir")
done < <(find Sources "$BIN" -maxdepth 3 -name module.modulemap 2>/dev/null | sort)

rm -rf "$OUT"
mkdir -p "$GRAPHS"
started=$SECONDS
FAILED=()
for target in "${TARGETS[@]}"; do
    [ -f "$BIN/Modules/$target.swiftmodule" ] || { echo "docs: $BIN/Modules/$target.swiftmodule is missing (swift build first)"; exit 1; }
    mkdir -p "$GRAPHS/$target"
    "$SWIFT" symbolgraph-extract -module-name "$target" -target "$TRIPLE" -I "$BIN/Modules" "${CLANG[@]}" \
        -minimum-access-level public -skip-inherited-docs -output-dir "$GRAPHS/$target"
    # Only the module's own graph and its extensions of other modules (URLRequest.understudyFault, the session
    # trait): a re-exported module's symbols belong to that module's own archive.
    "$DOCC" convert "Sources/$target/$target.docc" --additional-symbol-graph-dir "$GRAPHS/$target" \
        --output-path "$OUT/$target.doccarchive" --transform-for-static-hosting --hosting-base-path "$target" \
        --fallback-display-name "$target" --fallback-bundle-identifier "understudy.$target" \
        --warnings-as-errors >"$OUT/$target.log" 2>&1 || { cat "$OUT/$target.log"; FAILED+=("$target"); continue; }
    ln -s "$target.doccarchive" "$OUT/$target"   # served at /<Target>/, the hosting base path
done
if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "docs FAILED: ${FAILED[*]} (every warning is an error; the diagnostics are above)"
    exit 1
fi

{
    echo '<!doctype html><meta charset="utf-8"><title>Understudy documentation</title><h1>Understudy</h1><ul>'
    for target in "${TARGETS[@]}"; do
        lower=$(echo "$target" | tr '[:upper:]' '[:lower:]')
        echo "<li><a href=\"$target/documentation/$lower/\">$target</a></li>"
    done
    echo '</ul>'
} >"$OUT/index.html"
echo "docs: ${#TARGETS[@]} archives in $OUT (${TARGETS[*]}), no warnings, in $((SECONDS - started)) s"

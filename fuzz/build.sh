#!/usr/bin/env bash
# Builds the libFuzzer binaries (with AddressSanitizer) into .build/fuzz/: fuzz-server (the fault-spec, query,
# fixture and relay targets, picked by UNDERSTUDY_FUZZ_TARGET), fuzz-sse (the client's SSE parser) and fuzz-websocket (the
# WebSocket frame reader both sides share).
#
# SwiftPM cannot add -sanitize=fuzzer to every module, so swiftc builds them here. Which modules there are comes
# from the manifest (fuzz/targets.py), not from a list written here: a target added to Package.swift is built for
# fuzzing with no edit (a hand-kept list once broke fuzzing for a whole stop when the WebSocket codec was added).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out/modules"
# One package name for every module, so UnderstudyJSON's `package` declarations are visible to the others.
common=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -package-name understudy)

# Every target the three binaries need, dependencies first. (Bash 3's loops and arrays only, and arrays that may be
# empty expanded as ${a[@]+…}: a Mac's bash is 3.2, which calls an empty array unbound under set -u.)
# The server's and the client's own modules are not among them: each is compiled into its fuzz binary. The manifest
# is dumped once and read by every call below.
swift package dump-package > "$out/package.json"
targets_of() { python3 fuzz/targets.py --manifest "$out/package.json" "$@"; }
targets=()
while IFS= read -r line; do targets+=("$line"); done < <(targets_of Understudy UnderstudyClient)
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: fuzz/targets.py listed no targets" >&2; exit 1; }
packages=()       # pkg-config names of the system libraries
swift_includes=() # what a Swift module is compiled with: module maps, C headers, the library modules
c_includes=()
for line in "${targets[@]}"; do
  read -r kind _ path package <<<"$line"
  case $kind in
    system) packages+=("$package"); swift_includes+=(-I "$path") ;;
    c) swift_includes+=(-I "$path/include"); c_includes+=(-I "$path/include") ;;
  esac
done
# The system libraries' header paths and link flags, as arrays; swiftc hands each -I to clang through -Xcc.
read -r -a system_cflags <<<"$(pkg-config --cflags-only-I "${packages[@]}")"
swift_includes+=(-I "$out/modules")
for flag in ${system_cflags[@]+"${system_cflags[@]}"}; do swift_includes+=(-Xcc "$flag"); done
read -r -a system_libs <<<"$(pkg-config --libs "${packages[@]}")"

# A C file's object, named after its target so two targets' files of one name stay apart.
object_of() { echo "$out/$1-$(basename "$2" .c).o"; }
# The objects a target is built into: a Swift module's one, or one per C file.
objects_of_target() {
  case $1 in
    swift) echo "$out/$2.o" ;;
    c) for source in $(find "$3" -name '*.c' | sort); do object_of "$2" "$source"; done ;;
  esac
}

# Each library module once, as an object and a .swiftmodule; each C file under the same sanitizer.
for line in "${targets[@]}"; do
  read -r kind name path _ <<<"$line"
  case $kind in
    c)
      for source in $(find "$path" -name '*.c' | sort); do
        clang -O1 -fsanitize=address,fuzzer-no-link -c "$source" ${c_includes[@]+"${c_includes[@]}"} \
          ${system_cflags[@]+"${system_cflags[@]}"} -o "$(object_of "$name" "$source")"
      done
      ;;
    swift)
      swiftc "${common[@]}" -module-name "$name" "${swift_includes[@]}" -emit-module \
        -emit-module-path "$out/modules/$name.swiftmodule" -wmo -c $(find "$path" -name '*.swift' | sort) \
        -o "$out/$name.o"
      ;;
  esac
done

# The objects of what a root depends on (fuzz/targets.py's arguments).
objects_of() {
  targets_of "$@" | while read -r kind name path _; do objects_of_target "$kind" "$name" "$path"; done
}
link() { grep -v "Cannot export local symbol" >&2 || true; }

# The control room's files as SwiftPM's embedInCode compiles them into Understudy (`PackageResources`), from the
# debug build `make fuzz` runs first.
resources=.build/debug/Understudy.build/DerivedSources/embedded_resources.swift
[ -f "$resources" ] || { echo "fuzz: $resources is missing (swift build --product understudy first)" >&2; exit 1; }
swiftc "${common[@]}" -module-name FuzzServer "${swift_includes[@]}" $(objects_of Understudy) \
  $(find Sources/Understudy -name '*.swift' | sort) "$resources" fuzz/ServerEntry.swift fuzz/FaultSpecTarget.swift \
  fuzz/QueryTarget.swift fuzz/FixturesTarget.swift fuzz/WebSocketRelayTarget.swift ${system_libs[@]+"${system_libs[@]}"} -o "$out/fuzz-server" 2> >(link)
swiftc "${common[@]}" -module-name FuzzSSE "${swift_includes[@]}" $(objects_of UnderstudyClient) \
  $(find Sources/UnderstudyClient -name '*.swift' | sort) fuzz/SSEParserTarget.swift -o "$out/fuzz-sse" 2> >(link)
# The frame reader alone: it needs nothing but its own module.
swiftc "${common[@]}" -module-name FuzzWebSocket "${swift_includes[@]}" $(objects_of --with-roots UnderstudyWebSocket) \
  fuzz/WebSocketReaderTarget.swift -o "$out/fuzz-websocket" 2> >(link)
echo "fuzz: built $out/fuzz-server, $out/fuzz-sse and $out/fuzz-websocket"

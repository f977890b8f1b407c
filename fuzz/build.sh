#!/usr/bin/env bash
# Builds the libFuzzer binaries (with AddressSanitizer) into .build/fuzz/: fuzz-server (the fault-spec, query and
# fixture targets, picked by UNDERSTUDY_FUZZ_TARGET), fuzz-sse (the client's SSE parser) and fuzz-websocket (the
# WebSocket frame reader both sides share).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out"
# One package name for every module, so UnderstudyJSON's `package` declarations are visible to the others.
common=(-sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -package-name understudy)
# The server's C targets, compiled with the toolchain's clang under the same sanitizer.
# Every C file of those targets, so one added to a target is linked here too.
c_objects=()
for source in Sources/CHeaderLines/*.c Sources/CByteSearch/*.c; do
  target=$(basename "$(dirname "$source")")
  object="$out/$(basename "$source" .c).o"
  clang -O1 -fsanitize=address,fuzzer-no-link -c "$source" -I "Sources/$target/include" \
    $(pkg-config --cflags-only-I libevent) -o "$object"
  c_objects+=("$object")
done
# The lock both libraries import, the server's JSON, the typed fault spec it re-exports and the WebSocket codec, as modules of their own (the rest is compiled into one
# module per binary).
mkdir -p "$out/modules"
swiftc "${common[@]}" -module-name UnderstudyLocking -emit-module -emit-module-path "$out/modules/UnderstudyLocking.swiftmodule" \
  -wmo -c Sources/UnderstudyLocking/*.swift -o "$out/UnderstudyLocking.o"
swiftc "${common[@]}" -module-name UnderstudyJSON -emit-module -emit-module-path "$out/modules/UnderstudyJSON.swiftmodule" \
  -wmo -c $(find Sources/UnderstudyJSON -name '*.swift' | sort) -o "$out/UnderstudyJSON.o"
swiftc "${common[@]}" -module-name UnderstudyFaultSpec -emit-module -emit-module-path "$out/modules/UnderstudyFaultSpec.swiftmodule" \
  -wmo -c $(find Sources/UnderstudyFaultSpec -name '*.swift' | sort) -o "$out/UnderstudyFaultSpec.o"
# The RFC 6455 codec the server's sockets and the client's share.
swiftc "${common[@]}" -module-name UnderstudyWebSocket -emit-module -emit-module-path "$out/modules/UnderstudyWebSocket.swiftmodule" \
  -wmo -c $(find Sources/UnderstudyWebSocket -name '*.swift' | sort) -o "$out/UnderstudyWebSocket.o"
swiftc "${common[@]}" -module-name UnderstudyRecording -I "$out/modules" -emit-module \
  -emit-module-path "$out/modules/UnderstudyRecording.swiftmodule" \
  -wmo -c $(find Sources/UnderstudyRecording -name '*.swift' | sort) -o "$out/UnderstudyRecording.o"
# The OpenAPI mock and the YAML reader `--spec` loads documents with (libfyaml through CFYAML's module map).
swiftc "${common[@]}" -module-name UnderstudyOpenAPI -I "$out/modules" -emit-module \
  -emit-module-path "$out/modules/UnderstudyOpenAPI.swiftmodule" \
  -wmo -c $(find Sources/UnderstudyOpenAPI -name '*.swift' | sort) -o "$out/UnderstudyOpenAPI.o"
swiftc "${common[@]}" -module-name UnderstudyYAML -I "$out/modules" -I Sources/CFYAML \
  $(pkg-config --cflags-only-I libfyaml | sed 's/-I/-Xcc -I/g') -emit-module \
  -emit-module-path "$out/modules/UnderstudyYAML.swiftmodule" \
  -wmo -c $(find Sources/UnderstudyYAML -name '*.swift' | sort) -o "$out/UnderstudyYAML.o"
# The control room's files as SwiftPM's embedInCode compiles them into Understudy (`PackageResources`), from the
# debug build `make fuzz` runs first.
resources=.build/debug/Understudy.build/DerivedSources/embedded_resources.swift
[ -f "$resources" ] || { echo "fuzz: $resources is missing (swift build --product understudy first)" >&2; exit 1; }
swiftc "${common[@]}" -module-name FuzzServer -I "$out/modules" "$out/UnderstudyLocking.o" "$out/UnderstudyJSON.o" \
  "$out/UnderstudyFaultSpec.o" "$out/UnderstudyRecording.o" "$out/UnderstudyOpenAPI.o" "$out/UnderstudyYAML.o" \
  "$out/UnderstudyWebSocket.o" \
  -I Sources/CFYAML -I Sources/CLibevent -I Sources/CCrypto -I Sources/COpenSSL -I Sources/CLibeventOpenSSL \
  -I Sources/CHeaderLines/include -I Sources/CByteSearch/include \
  $(pkg-config --cflags-only-I libevent libevent_openssl libssl libcrypto libfyaml | sed 's/-I/-Xcc -I/g') "${c_objects[@]}" \
  $(find Sources/Understudy -name '*.swift' | sort) "$resources" fuzz/ServerEntry.swift fuzz/FaultSpecTarget.swift \
  fuzz/QueryTarget.swift fuzz/FixturesTarget.swift \
  $(pkg-config --libs libevent libevent_pthreads libevent_openssl libssl libcrypto libfyaml) -o "$out/fuzz-server" 2> >(grep -v "Cannot export local symbol" >&2)
swiftc "${common[@]}" -module-name FuzzSSE -I "$out/modules" "$out/UnderstudyLocking.o" "$out/UnderstudyWebSocket.o" \
  $(find Sources/UnderstudyClient -name '*.swift' | sort) \
  fuzz/SSEParserTarget.swift -o "$out/fuzz-sse" 2> >(grep -v "Cannot export local symbol" >&2)
# The frame reader alone: it needs nothing but its own module.
swiftc "${common[@]}" -module-name FuzzWebSocket -I "$out/modules" "$out/UnderstudyWebSocket.o" \
  fuzz/WebSocketReaderTarget.swift -o "$out/fuzz-websocket" 2> >(grep -v "Cannot export local symbol" >&2)
echo "fuzz: built $out/fuzz-server, $out/fuzz-sse and $out/fuzz-websocket"

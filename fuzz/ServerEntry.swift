// The server fuzzer's entry point: one binary, four targets, chosen by UNDERSTUDY_FUZZ_TARGET
// (fault-spec, query, fixtures or websocket-relay), so the server module is compiled once for all of them.
import Foundation

private let target = ProcessInfo.processInfo.environment["UNDERSTUDY_FUZZ_TARGET"] ?? "fault-spec"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch target {
    case "query": fuzzQuery(data, size)
    case "fixtures": fuzzFixtures(data, size)
    case "websocket-relay": fuzzWebSocketRelay(data, size)
    default: fuzzFaultSpec(data, size)
    }
}

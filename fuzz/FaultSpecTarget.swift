// libFuzzer target: fault specs, as they arrive in headers, queries, rules and scenario files.
func fuzzFaultSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let spec = try? FaultSpecParser.parse(text) {
        // A spec that parsed must survive a round trip through its normalised text.
        precondition((try? FaultSpecParser.parse(spec.text)) == spec, "round trip changed \(text)")
    }
    return 0
}

// libFuzzer target: fault specs, as they arrive in headers, queries, rules and scenario files.
func fuzzFaultSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let spec = try? FaultSpec(parsing: text) {
        // A spec that parsed must survive a round trip through its normalised text.
        precondition((try? FaultSpec(parsing: spec.text)) == spec, "round trip changed \(text)")
        // The typed reader takes what the server takes, and (within the length limit) its rendering decides the
        // same reply.
        guard let typed = try? Fault(parsing: text) else { preconditionFailure("Fault(parsing:) refused \(text)") }
        if typed.text.utf8.count <= FaultGrammar.maximumLength {
            guard var rendered = try? FaultSpec(parsing: typed.text) else {
                preconditionFailure("the server refused \(typed.text), the rendering of \(text)")
            }
            var decided = spec
            (decided.text, decided.directives, rendered.text, rendered.directives) = ("", [], "", [])
            precondition(rendered == decided, "the rendering \(typed.text) decides otherwise than \(text)")
        }
    }
    return 0
}

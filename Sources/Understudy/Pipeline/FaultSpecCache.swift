/// Fault specs sent per request, parsed once, and the canned replies of those that ask only for an error status,
/// both keyed by the spec's text: a test sends the same header again and again. Bounded; used on the loop thread.
final class FaultSpecCache {
    static let maximumEntries = 256
    private var specs: [String: FaultSpec] = [:]
    private var replies: [String: CannedReply] = [:]

    /// The spec `text` reads as, parsed the first time it is seen.
    func parsed(_ text: String) throws(FaultSpecError) -> FaultSpec {
        if let known = specs[text] { return known }
        let spec = try FaultSpec(parsing: text)
        if specs.count >= FaultSpecCache.maximumEntries { specs.removeAll(keepingCapacity: true) }
        specs[text] = spec
        return spec
    }

    /// The canned reply to the fault `text`, which `build` makes (or refuses, with nil) the first time it is seen.
    func cannedReply(to text: String, build: (String) -> CannedReply?) -> CannedReply? {
        if let known = replies[text] { return known }
        guard let built = build(text) else { return nil }
        if replies.count >= FaultSpecCache.maximumEntries { replies.removeAll(keepingCapacity: true) }
        replies[text] = built
        return built
    }
}

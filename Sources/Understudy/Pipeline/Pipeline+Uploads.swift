extension Pipeline {
    /// The rate, in bytes per second, at which the request whose head this is should have its body read: its
    /// own fault's `uprate` (or its profile's), else its session's profile's; nil: as fast as it comes.
    ///
    /// Asked by the transport when the head arrives, before evhttp reads the body, so rules (which match the
    /// whole request) do not set it. A spec that does not parse sets nothing: the request is answered 400 anyway.
    func uploadRate(forHead head: UnsafeRawBufferPointer) -> Int? {
        guard let asked = RequestHead(head) else { return nil }
        if let text = asked.fault, let spec = try? parsedSpec(text), let rate = spec.uploadBytesPerSecond {
            return rate
        }
        guard let session = asked.session, faults.hasRules else { return nil }
        return faults.withBook { $0.profile(session: session) }?.uploadBytesPerSecond
    }
}

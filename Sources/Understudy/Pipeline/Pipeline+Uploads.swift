extension Pipeline {
    /// The rate, in bytes per second, at which the request whose head this is should have its body read, and the
    /// body's announced length: its own fault's `uprate` (or its profile's), else its session's profile's; nil: as
    /// fast as it comes.
    ///
    /// Asked by the transport when the head arrives, before evhttp reads the body, so rules (which match the
    /// whole request) do not set it. A spec that does not parse sets nothing: the request is answered 400 anyway;
    /// nor does one the server would refuse for want of its admin token.
    func uploadRate(forHead head: UnsafeRawBufferPointer) -> (bytesPerSecond: Int, bodyBytes: Int)? {
        guard let asked = RequestHead(head) else { return nil }
        if let text = asked.fault, remoteControl.allowsFaults(presenting: asked.token),
           let spec = try? specs.parsed(text), let rate = spec.uploadBytesPerSecond {
            return (rate, asked.bodyBytes)
        }
        guard let session = asked.session, faults.hasRules,
              let rate = faults.withBook({ $0.profile(session: session) })?.uploadBytesPerSecond else { return nil }
        return (rate, asked.bodyBytes)
    }
}

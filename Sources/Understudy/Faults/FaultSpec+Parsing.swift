extension FaultSpec {
    /// Reads `text` with the one fault grammar, refusing what could never change anything as well as what is
    /// malformed: a directive given twice, one that clashes with an earlier directive (`status=503; empty`), and
    /// `message` or `retry-after` with no status to go with.
    ///
    /// - Throws: `FaultSpecError` naming the directive, its position and the problem; nothing is half-applied.
    init(parsing text: String) throws(FaultSpecError) {
        self.init()
        for written in try FaultGrammar.parse(text, checkingCombinations: true) {
            apply(written.directive)
            directives.append(Directive(name: written.name.rawValue, text: written.text))
        }
        self.text = directives.map(\.text).joined(separator: "; ")
    }

    /// The spec a session's profile gives a request that asks for no fault of its own.
    init(profile: Fault.NetworkProfile) {
        self.init()
        throttle(by: profile)
        directives = [Directive(name: Fault.Directive.Name.profile.rawValue, text: "profile=\(profile.name)")]
        text = directives[0].text
    }

    /// This spec under a session's profile: the profile fills what the spec leaves open, and is reported with it.
    func throttled(by profile: Fault.NetworkProfile) -> FaultSpec {
        guard self.profile == nil else { return self }
        var spec = self
        spec.throttle(by: profile)
        spec.directives.append(Directive(name: Fault.Directive.Name.profile.rawValue, text: "profile=\(profile.name)"))
        spec.text = spec.directives.map(\.text).joined(separator: "; ")
        return spec
    }

    /// What a network preset decides, for what this spec leaves open: the download rate paces the body, the
    /// upload rate reads the request's, the latency is the delay, a lossy network pauses mid-body now and then
    /// (200 ms to 1 s, about as long as a lost packet's retransmission takes), and one that loses everything hangs.
    mutating func throttle(by profile: Fault.NetworkProfile) {
        self.profile = profile
        guard !profile.dropsEverything else {
            if connection == nil { connection = .hang }
            return
        }
        if delay == nil, profile.latencyMilliseconds > 0 {
            delay = profile.latencyMilliseconds...profile.latencyMilliseconds
        }
        if pacing == nil, truncation == nil, let rate = profile.downloadBytesPerSecond { pacing = .bytesPerSecond(rate) }
        if stream.bytesPerSecond == nil { stream.bytesPerSecond = profile.downloadBytesPerSecond }
        if uploadBytesPerSecond == nil { uploadBytesPerSecond = profile.uploadBytesPerSecond }
        if stall == nil, truncation == nil, profile.lossPercent > 0 { stall = 200...1_000 }
    }

    /// What one directive decides.
    private mutating func apply(_ directive: Fault.Directive) {
        switch directive {
        case .delay(let range): delay = range
        case .jitter(let milliseconds): jitter = milliseconds
        case .rate(let bytesPerSecond): pacing = .bytesPerSecond(bytesPerSecond)
        case .uprate(let bytesPerSecond): uploadBytesPerSecond = bytesPerSecond
        case .stall(let range): stall = range
        case .profile(let profile): throttle(by: profile)
        case .chunks(let count, let milliseconds): pacing = .chunks(count: count, overMilliseconds: milliseconds)
        case .status(let code): status = code
        case .message(let text): message = text
        case .retryAfter(let value): retryAfter = value.text
        case .rateLimit(let requests, let milliseconds):
            rateLimit = RateLimit(requests: requests, windowMilliseconds: milliseconds)
        case .expireToken: expireToken = true
        case .malformed(let shape): malformed = shape ? .shape : .syntax
        case .truncateBytes(let bytes): truncation = .bytes(bytes)
        case .truncatePercent(let percent): truncation = .percent(percent)
        case .truncateChunked: truncation = .chunked
        case .empty: connection = .empty
        case .reset(let afterHeaders): connection = .reset(afterHeaders: afterHeaders)
        case .hang: connection = .hang
        case .garbage: connection = .garbage
        case .dropAfter(let events): stream.dropAfter = events
        case .cutMidEvent(let event): stream.cutMidEvent = event
        case .resetAfter(let events): stream.resetAfter = events
        case .stallAfter(let events): stream.stallAfter = events
        case .malformedEvent(let event): stream.malformedEvent = event
        case .newline(let newline): stream.newline = newline.rawValue
        case .chunk(let bytes): stream.chunkSize = bytes
        case .close(let code): socket.closeCode = code
        case .closeAfter(let milliseconds): socket.closeAfterMilliseconds = milliseconds
        case .corrupt(let corruption): socket.corruption = corruption
        case .skip(let message): socket.skip = message
        case .duplicate(let message): socket.duplicate = message
        case .lag(let range): socket.lag = range
        }
    }
}

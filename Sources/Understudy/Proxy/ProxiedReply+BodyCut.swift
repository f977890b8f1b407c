import UnderstudyJSON

/// How a forwarded body is cut, paced and ended, decided from the plan once the head has come; and the headers
/// that go on with it.
extension ProxiedReply {
    /// How much of the body goes out, how fast, and how it ends.
    struct BodyCut {
        /// Where the body comes from.
        enum Source {
            /// Read from the exchange as it arrives; its length when the upstream said it.
            case live(length: Int?)
            /// Gathered whole first, and transformed (a fault needed all of it).
            case held([UInt8])
        }

        var source: Source
        /// Body bytes to send at most; nil: all.
        var limit: Int?
        /// The pace, for a dribbled body.
        var pacer: RatePacer?
        var sent = 0
        /// The stream faults at work on an event stream.
        var events: EventBytes?

        var held: [UInt8]? {
            if case .held(let body) = source { return body }
            return nil
        }
    }

    /// The faults that need the whole body before the first byte goes: breaking its JSON, and a share of a body
    /// whose length is not known yet.
    func needsWholeBody(_ head: UpstreamExchange.Head) -> Bool {
        // A reply held to a document is checked whole before its head goes out (`holdsForContract`).
        if contract != nil { return true }
        if plan.malformed != nil, (200..<300).contains(head.status) { return true }
        guard head.contentLength == nil else { return false }
        if case .percent? = plan.truncation { return true }
        if case .chunks? = plan.pacing { return true }
        return false
    }

    /// The limit and pace for a body from `source`.
    func bodyCut(_ source: BodyCut.Source, now: Double) -> BodyCut {
        var cut = BodyCut(source: source)
        let length: Int?
        switch source {
        case .live(let said): length = said
        case .held(let body): length = body.count
        }
        switch plan.truncation {
        case .bytes(let count)?:
            // A truncated body always misses at least its last byte; when the length is not known, the body ends
            // with a close instead of its last chunk (`endsWithClose`).
            cut.limit = length.map { min(count, max(0, $0 - 1)) } ?? count
        case .percent(let percent)?:
            cut.limit = (length ?? 0) * percent / 100
        case .chunked?:
            if let length { cut.limit = max(0, length - max(1, length / 4)) }
        case nil:
            break
        }
        if plan.pacing != nil || plan.stall != nil {
            var pauses: [RatePacer.Pause] = []
            if let stall = plan.stall, let length { pauses = RatePacer.pauses(length: length, range: stall, seed: plan.scheduleSeed) }
            cut.pacer = RatePacer(pacing: plan.pacing, length: length, pauses: pauses)
            _ = cut.pacer?.start(at: now)
        }
        return cut
    }

    /// A truncation of a body whose end was not known ends with a close instead of its last chunk.
    func endsWithClose(_ cut: BodyCut) -> Bool {
        guard case .live(length: nil) = cut.source else { return false }
        switch plan.truncation {
        case .bytes?, .chunked?: return true
        case .percent?, nil: return false
        }
    }

    /// The upstream's headers minus those of the hop between it and us, and minus those the reply sets itself.
    func forwardedHeaders(_ upstream: HTTPHeaders) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let hopByHop = upstream.hopByHopNames()
        for field in upstream {
            let name = field.name.lowercased()
            guard !hopByHop.contains(name), name != "content-length", ownHeaders[field.name] == nil else { continue }
            headers.add(field.name, field.value)
        }
        for field in ownHeaders { headers.add(field.name, field.value) }
        return headers
    }

    static func hasBody(status: Int) -> Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }

    static func corrupt(_ body: [UInt8], _ malformation: FaultSpec.Malformation) -> [UInt8] {
        switch malformation {
        case .syntax:
            return FaultedResponses.brokenSyntax(body)
        case .shape:
            guard let value = try? JSONParser.parse(body) else { return FaultedResponses.brokenSyntax(body) }
            return JSONWriter.encode(FaultedResponses.wrongShape(value))
        }
    }
}

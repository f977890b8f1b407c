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

    /// What one directive decides.
    private mutating func apply(_ directive: Fault.Directive) {
        switch directive {
        case .delay(let range): delay = range
        case .rate(let bytesPerSecond): pacing = .bytesPerSecond(bytesPerSecond)
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
        }
    }
}

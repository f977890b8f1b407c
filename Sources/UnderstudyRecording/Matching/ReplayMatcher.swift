import UnderstudyLocking

/// Answers requests from a recording: the Nth identical request gets the Nth recorded answer, and the last answer
/// repeats once the sequence is used up. Thread-safe; the server's loop and URLProtocol threads share one.
///
/// Matching reads the method, the path, the query regardless of order (less the ignored parameters) and the body
/// in canonical form. A request is redacted by the recording's rules before comparing, so a placeholder written
/// in place of a token matches whatever token the replaying client sends.
public final class ReplayMatcher: Sendable {
    /// The recording answered from.
    public let recording: Recording
    private let rules: KeyRules
    /// Each key's entry; two files with one key (a hand edit, an import) join into one sequence, file order first.
    private let index: [RequestKey: [Int]]
    /// How many answers each key has given.
    private let served: Locked<[RequestKey: Int]>

    /// A matcher for `recording`, with `extra` options added to the recording's own (more ignored parameters).
    public init(_ recording: Recording, adding extra: RecordingOptions = RecordingOptions()) {
        var merged = recording
        merged.options = recording.options.adding(extra)
        self.recording = merged
        rules = KeyRules(options: merged.options)
        var index: [RequestKey: [Int]] = [:]
        for (position, entry) in merged.entries.enumerated() {
            index[RequestKey(entry.request, rules: rules), default: []].append(position)
        }
        self.index = index
        served = Locked([:])
    }

    /// The answer to `request`, or the miss naming it and the nearest recordings.
    public func answer(_ request: RecordedExchange.Request) -> ReplayAnswer {
        switch pick(request) {
        case .success(let picked):
            let entry = recording.entries[picked.entry]
            return .hit(entry.responses[picked.response], file: entry.file)
        case .failure(let miss):
            return .miss(miss)
        }
    }

    /// Where the answer to `request` is: the entry's position in ``recording`` and the response's in that entry
    /// (for a server that prepared every response once), or the miss.
    package func pick(_ request: RecordedExchange.Request) -> Result<(entry: Int, response: Int), ReplayMiss> {
        let key = RequestKey(request, rules: rules)
        guard let positions = index[key] else {
            return .failure(ReplayMiss(request: request, nearest: nearest(to: request)))
        }
        let turn = served.withLock { served in
            let turn = served[key, default: 0]
            served[key] = turn + 1
            return turn
        }
        // The sequence runs through the key's files in order; past its end, the last answer repeats.
        var remaining = turn
        for position in positions {
            let count = recording.entries[position].responses.count
            if remaining < count { return .success((position, remaining)) }
            remaining -= count
        }
        let last = positions[positions.count - 1]
        return .success((last, recording.entries[last].responses.count - 1))
    }

    /// Starts every sequence again from its first answer.
    public func rewind() {
        served.withLock { $0.removeAll() }
    }

    /// At most three recordings near `request`: the same method and path first, then the same path, then paths
    /// sharing the most leading segments (ties: the closest in length).
    private func nearest(to request: RecordedExchange.Request) -> [String] {
        let segments = request.path.split(separator: "/")
        let ranked = recording.entries.compactMap { entry -> (tier: Int, closeness: Int, file: String, text: String)? in
            let text = ReplayMiss.describe(entry.request) + " (" + entry.file + ")"
            if entry.request.path == request.path {
                return (entry.request.method == request.method ? 0 : 1, 0, entry.file, text)
            }
            let other = entry.request.path.split(separator: "/")
            let shared = zip(segments, other).prefix { $0 == $1 }.count
            guard shared > 0 || segments.isEmpty || other.isEmpty else { return nil }
            let closeness = -shared * 1_000 + abs(other.count - segments.count) * 10 + (entry.request.method == request.method ? 0 : 1)
            return (2, closeness, entry.file, text)
        }
        return ranked.sorted { ($0.tier, $0.closeness, $0.file) < ($1.tier, $1.closeness, $1.file) }.prefix(3).map(\.text)
    }
}

import Foundation

/// An operation's path template, matched segment by segment: a literal word exactly (paths are case-sensitive),
/// a `{name}` segment any one segment, and a segment mixing both (`{id}.json`, `v{version}`) by its literal parts.
package struct PathTemplate: Sendable {
    enum Segment: Sendable {
        case literal(String)
        /// Literal text and parameter names in turn: `{id}.json` is [param id, literal .json].
        case pattern([Piece])
    }

    enum Piece: Sendable, Equatable {
        case text(String)
        case parameter(String)
    }

    package let template: String
    let segments: [Segment]
    /// Query pairs the template itself writes (OpenAI's `/responses?beta=true` beside `/responses`, which OpenAPI
    /// does not allow and OpenAI's clients rely on): a request must carry each to match; a bare name, any value.
    let query: [(name: String, value: String?)]

    package init(_ template: String) {
        self.template = template
        let parts = template.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        query = parts.count > 1 ? Self.pairs(parts[1]).map { ($0.name, $0.value) } : []
        segments = parts[0].split(separator: "/", omittingEmptySubsequences: true).map { word in
            guard word.contains("{") else { return .literal(String(word)) }
            var pieces: [Piece] = []
            var rest = Substring(word)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
                pieces.append(.parameter(String(rest[rest.index(after: open)..<close])))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { pieces.append(.text(String(rest))) }
            return .pattern(pieces)
        }
    }

    /// Whether a request's query carries every pair the template writes.
    func accepts(query raw: String?) -> Bool {
        guard !query.isEmpty else { return true }
        let sent = raw.map { Self.pairs(Substring($0)) } ?? []
        return query.allSatisfy { wanted in
            sent.contains { $0.name == wanted.name && (wanted.value == nil || $0.value == wanted.value) }
        }
    }

    private static func pairs(_ text: Substring) -> [(name: String, value: String?)] {
        text.split(separator: "&").map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part) }
            return (decode(halves[0]), halves.count > 1 ? decode(halves[1]) : nil)
        }
    }

    /// How specific the template is, segment by segment: a literal before a mixed segment before a bare parameter,
    /// so `/pets/mine` is tried before `/pets/{id}`.
    var rank: [Int] {
        segments.map {
            switch $0 {
            case .literal: 0
            case .pattern(let pieces) where pieces.count > 1: 1
            case .pattern: 2
            }
        }
    }

    /// The path parameters of `segments` (raw path segments, still percent-encoded) when the template matches them.
    func match(_ segments: [Substring]) -> [String: String]? {
        guard segments.count == self.segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, raw) in zip(self.segments, segments) {
            let decoded = String(raw).removingPercentEncoding ?? String(raw)
            switch segment {
            case .literal(let word):
                guard decoded == word else { return nil }
            case .pattern(let pieces):
                guard let captured = PathTemplate.match(pieces, decoded) else { return nil }
                parameters.merge(captured) { first, _ in first }
            }
        }
        return parameters
    }

    /// Matches one segment's pieces: text exactly, each parameter at least one character up to the next text.
    private static func match(_ pieces: [Piece], _ text: String) -> [String: String]? {
        var rest = Substring(text)
        var captured: [String: String] = [:]
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .text(let literal):
                guard rest.hasPrefix(literal) else { return nil }
                rest = rest.dropFirst(literal.count)
            case .parameter(let name):
                if index + 1 < pieces.count, case .text(let next) = pieces[index + 1] {
                    guard let end = rest.dropFirst().firstRange(of: next)?.lowerBound else { return nil }
                    captured[name] = String(rest[..<end])
                    rest = rest[end...]
                } else {
                    guard !rest.isEmpty else { return nil }
                    captured[name] = String(rest)
                    rest = ""
                }
            }
        }
        return rest.isEmpty ? captured : nil
    }
}

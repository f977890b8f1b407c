/// A route's path: literal segments, matched without regard to ASCII case as Express does (or exactly, for the
/// admin API's), and parameters.
///
/// A pattern is matched against the request's path in place: segments are slices of the path and only a segment
/// with a `%` is decoded before it is compared, so routing a plain path allocates nothing but its parameters.
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        /// A fixed word, stored lower-cased.
        case literal(String)
        /// `{name}`: any one segment.
        case parameter(String)
        /// `{collection}`: the name of one of your own collections (`--fixtures`), which the router looks up.
        case collection
        /// `{name...}`: every remaining segment, at least one.
        case rest(String)
    }

    /// The pattern as the spec writes it (`/products/{id}`).
    let template: String
    let segments: [Segment]
    /// Whether literal words must match in case too.
    let caseSensitive: Bool

    init(_ template: String, caseSensitive: Bool = false) {
        self.template = template
        self.caseSensitive = caseSensitive
        segments = template.split(separator: "/").map { word in
            guard word.hasPrefix("{"), word.hasSuffix("}") else { return .literal(caseSensitive ? String(word) : word.lowercased()) }
            let name = String(word.dropFirst().dropLast())
            if name == "collection" { return .collection }
            if name.hasSuffix("...") { return .rest(String(name.dropLast(3))) }
            return .parameter(name)
        }
    }

    var description: String { template }

    /// The first segment when it is a literal: the word the router indexes the pattern under.
    var firstLiteral: String? {
        if case .literal(let word)? = segments.first { return word }
        return nil
    }

    /// Whether `path` has this pattern's shape after its first word, which the router's index matched already (a
    /// resource's alias, your own collection's name); its parameters go into `captures`.
    func matchesAfterFirstWord(_ path: Substring, captures: inout RouteCaptures) -> Bool {
        var cursor = PathCursor(path)
        captures = RouteCaptures()
        guard cursor.next() != nil else { return segments.isEmpty }
        return matchesRest(&cursor, from: 1, captures: &captures)
    }

    /// Whether `path` has this pattern's shape, every word of it; its parameters go into `captures`.
    func matches(_ path: Substring, captures: inout RouteCaptures) -> Bool {
        var cursor = PathCursor(path)
        captures = RouteCaptures()
        return matchesRest(&cursor, from: 0, captures: &captures) || (segments.isEmpty && PathCursor(path).isAtEnd)
    }

    private func matchesRest(_ cursor: inout PathCursor, from first: Int, captures: inout RouteCaptures) -> Bool {
        for segment in segments.dropFirst(first) {
            if case .rest = segment {
                let remainder = cursor.remainder
                guard cursor.next() != nil else { return false }
                captures.rest = remainder
                return true
            }
            guard let word = cursor.next() else { return false }
            switch segment {
            case .literal(let literal):
                guard caseSensitive ? QueryParameters.decodePath(word) == literal : RoutePattern.word(word, equals: literal) else {
                    return false
                }
            case .parameter, .collection, .rest:
                captures.append(word)
            }
        }
        return !segments.isEmpty && cursor.next() == nil
    }

    /// Whether a raw path segment is `literal` (lower-case), ignoring ASCII case, once percent-decoded.
    static func word(_ raw: Substring, equals literal: String) -> Bool {
        // Decoded once: a stray `%` (`%og`) stays in the decoded word, which must not be decoded again.
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return equalsIgnoringCase(raw, literal) }
        return equalsIgnoringCase(Substring(QueryParameters.decodePath(raw)), literal)
    }

    private static func equalsIgnoringCase(_ raw: Substring, _ literal: String) -> Bool {
        guard raw.utf8.count == literal.utf8.count else { return false }
        return zip(raw.utf8, literal.utf8).allSatisfy { sent, expected in
            sent == expected || (sent >= UInt8(ascii: "A") && sent <= UInt8(ascii: "Z") && (sent | 0x20) == expected)
        }
    }
}

/// The raw segments a pattern captured: at most two parameters, and the remainder of a `{name...}` pattern.
struct RouteCaptures {
    private(set) var first: Substring?
    private(set) var second: Substring?
    var rest: Substring?

    mutating func append(_ segment: Substring) {
        if first == nil { first = segment } else { second = segment }
    }
}

/// Walks a path's non-empty segments (`/a//b` is `a`, `b`, as splitting on `/` gives them) without copying them.
struct PathCursor {
    private let path: Substring
    private var index: Substring.Index

    init(_ path: Substring) {
        self.path = path
        index = path.startIndex
    }

    /// The next non-empty segment, or nil at the end.
    mutating func next() -> Substring? {
        let bytes = path.utf8
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: "/") { index = bytes.index(after: index) }
        guard index < bytes.endIndex else { return nil }
        let start = index
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: "/") { index = bytes.index(after: index) }
        return path[start..<index]
    }

    /// What is left after the segments read so far.
    var remainder: Substring { path[index...] }

    /// Whether no segment is left.
    var isAtEnd: Bool {
        var copy = self
        return copy.next() == nil
    }
}

import UnderstudyRecording

/// A request's query string, decoded the way Express's `qs` does (`+` is a space, `%XX` is a byte).
public struct QueryParameters: Sendable, Equatable {
    /// The name/value pairs in the order they were sent.
    public let pairs: [(name: String, value: String)]

    /// Parses the part of a URI after `?` (without the `?`).
    public init(_ rawQuery: Substring) {
        var pairs: [(name: String, value: String)] = []
        // Split on bytes, as Node does: a combining mark after `&` or `=` would otherwise join it into one
        // Character and hide the separator.
        for part in rawQuery.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                pairs.append((QueryParameters.decode(Substring(part[..<equals])),
                              QueryParameters.decode(Substring(part[part.index(after: equals)...]))))
            } else {
                pairs.append((QueryParameters.decode(Substring(part)), ""))
            }
        }
        self.pairs = pairs
    }

    /// No parameters.
    public init() {
        pairs = []
    }

    /// Every value sent for `name`.
    public func values(_ name: String) -> [String] {
        pairs.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The single value for `name`, or nil when it is absent.
    public subscript(name: String) -> String? {
        pairs.first(where: { $0.name == name })?.value
    }

    /// Equal when they hold the same names and values in the same order.
    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Percent-decodes one component; bytes that do not form valid UTF-8 become U+FFFD, and a stray `%` stays.
    static func decode(_ component: Substring) -> String {
        RecordedExchange.QueryItem.decode(component)
    }
}

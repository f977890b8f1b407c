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
        guard component.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(component)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.utf8.count)
        let utf8 = Array(component.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                      let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

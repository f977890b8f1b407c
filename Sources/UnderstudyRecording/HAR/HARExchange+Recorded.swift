extension HARExchange {
    /// The exchange as a recording keeps it: the query decoded into parameters as the server decodes a request's
    /// (`+` a space, `%XX` a byte), so a replayed request finds it.
    package var recorded: RecordedExchange {
        RecordedExchange(
            request: .init(method: method, path: path, query: HARExchange.queryItems(query),
                           headers: requestHeaders.map { .init($0.name, $0.value) }, body: requestBody),
            response: .init(status: status, headers: responseHeaders.map { .init($0.name, $0.value) }, body: responseBody))
    }

    /// `a=1&b=two+words` as parameters, in order; a part without `=` has an empty value, empty parts are skipped.
    static func queryItems(_ query: String?) -> [RecordedExchange.QueryItem] {
        guard let query else { return [] }
        return query.utf8.split(separator: UInt8(ascii: "&")).map { part in
            guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { return .init(decoded(part), "") }
            return .init(decoded(part[..<equals]), decoded(part[part.index(after: equals)...]))
        }
    }

    /// Percent-decodes a query component; a `%` not followed by two hex digits stays as it is.
    private static func decoded(_ component: Substring.UTF8View.SubSequence) -> String {
        let utf8 = Array(component)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                      let high = hex(utf8[index + 1]), let low = hex(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

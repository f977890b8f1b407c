extension RecordedExchange.QueryItem {
    /// The parameters of a raw query (the text after `?`), decoded as Express's `qs` decodes them: `+` is a space,
    /// `%XX` a byte; a part without `=` has an empty value, and empty parts are skipped. The server reads a
    /// request's query this way, so a recording made from a query written elsewhere (a HAR) matches on replay.
    package static func parse(_ rawQuery: Substring) -> [RecordedExchange.QueryItem] {
        // Split on bytes, as Node does: a combining mark after `&` or `=` would otherwise join it into one
        // Character and hide the separator.
        rawQuery.utf8.split(separator: UInt8(ascii: "&")).map { part in
            guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { return .init(decode(Substring(part)), "") }
            return .init(decode(Substring(part[..<equals])), decode(Substring(part[part.index(after: equals)...])))
        }
    }

    /// Percent-decodes one component; bytes that do not form valid UTF-8 become U+FFFD, and a stray `%` stays.
    package static func decode(_ component: Substring) -> String {
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

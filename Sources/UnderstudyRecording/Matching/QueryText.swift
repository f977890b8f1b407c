/// Writes query parameters back as URL text for keys and messages: only what would break the `name=value&…`
/// shape, or is not printable ASCII, is percent-encoded.
enum QueryText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "%"), UInt8(ascii: "#"), UInt8(ascii: "+"), 0...0x20, 0x7F...:
                let hex = String(byte, radix: 16, uppercase: true)
                escaped += "%" + (hex.count == 1 ? "0" + hex : hex)
            default:
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return escaped
    }

    /// `name=value&…` in the order given.
    static func render(_ items: [RecordedExchange.QueryItem]) -> String {
        items.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
    }
}

/// The byte-level decoding a HAR body needs: base64, form parameters back into a body, and telling a body that
/// lost its bytes on the way into the file.
enum HARBody {
    /// The bytes of base64 text (standard alphabet; padding optional; line breaks ignored, as some exporters wrap),
    /// or the 1-based position of the first character that is not base64.
    static func base64(_ text: String) -> Result<[UInt8], Base64Error> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        var padding = 0
        for (offset, byte) in text.utf8.enumerated() {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"): continue
            default: return .failure(Base64Error(position: offset + 1, problem: "a character that is not base64"))
            }
            guard padding == 0 else {
                return .failure(Base64Error(position: offset + 1, problem: "text after the '=' padding"))
            }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // Six leftover bits cannot end a base64 text: a character is missing.
        guard bits < 6, padding <= 2 else {
            return .failure(Base64Error(position: text.utf8.count, problem: "a length no base64 text has"))
        }
        return .success(bytes)
    }

    /// Where base64 text goes wrong.
    struct Base64Error: Error, Equatable {
        /// The 1-based character position.
        var position: Int
        /// What is wrong there.
        var problem: String
    }

    /// `name=value&…` from `postData.params`, escaped as `application/x-www-form-urlencoded` escapes (space as
    /// `+`), for an exporter that gave the parameters and no `text`.
    static func formBody(_ parameters: [(name: String, value: String)]) -> [UInt8] {
        Array(parameters.map { "\(formEscaped($0.name))=\(formEscaped($0.value))" }.joined(separator: "&").utf8)
    }

    private static func formEscaped(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "): escaped += "+"
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                escaped += "%"
                escaped.unicodeScalars.append(hex[Int(byte >> 4)])
                escaped.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return escaped
    }

    /// Whether a media type names text (so U+FFFD in it can be the text's own, not the mark of lost bytes).
    static func isTextual(_ mimeType: String) -> Bool {
        let type = mimeType.lowercased().split(separator: ";").first.map { $0.trimmingASCIISpaces } ?? ""
        if type.isEmpty || type.hasPrefix("text/") { return true }
        return ["json", "xml", "javascript", "x-www-form-urlencoded", "graphql", "yaml", "csv", "html"]
            .contains { type.contains($0) }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingASCIISpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

import Foundation
import UnderstudyJSON

/// How a body is kept in a recording file, named in the file beside it (`"bodyEncoding"`): as JSON a reviewer can
/// read and diff, as text, or as base64 when the bytes are neither.
enum BodyKind: String, Sendable {
    case json
    case text
    case base64

    /// Whether the bytes could start a JSON text (a cheap check before parsing).
    static func mayBeJSON(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return false }
        return switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            true
        default:
            false
        }
    }

    /// The body as the file keeps it: its kind and its JSON value (the parsed document, the text, or base64).
    ///
    /// JSON only when the content type says JSON (or says nothing) and the bytes parse: a `text/plain` reply of
    /// `42` stays text, so it replays as the same bytes.
    static func stored(_ bytes: [UInt8], contentType: String?) -> (kind: BodyKind, value: JSONValue) {
        let type = contentType?.lowercased() ?? ""
        if type.isEmpty || type.contains("json"), mayBeJSON(bytes), let value = try? JSONParser.parse(bytes) {
            return (.json, value)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.utf8.elementsEqual(bytes), !bytes.contains(0) {
            return (.text, .string(text))
        }
        return (.base64, .string(Data(bytes).base64EncodedString()))
    }

    /// The bytes a stored body stands for; nil when the value does not fit the kind (base64 that does not decode,
    /// text that is not a string).
    func bytes(of value: JSONValue) -> [UInt8]? {
        switch self {
        case .json: return JSONWriter.encode(value)
        case .text: return value.stringValue.map { Array($0.utf8) }
        case .base64:
            guard let text = value.stringValue, let data = Data(base64Encoded: text) else { return nil }
            return [UInt8](data)
        }
    }
}

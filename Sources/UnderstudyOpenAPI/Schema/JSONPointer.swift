import Foundation
import UnderstudyJSON

/// JSON pointers (RFC 6901): reading one, writing one, and following one into a tree.
package enum JSONPointer {
    /// The tokens of `pointer` (`/a~1b/0` is `a/b`, `0`); percent-decoded first when it came from a URI fragment.
    package static func tokens(_ pointer: String, percentDecoded: Bool = true) -> [String]? {
        let text = percentDecoded ? (pointer.removingPercentEncoding ?? pointer) : pointer
        guard !text.isEmpty else { return [] }
        guard text.hasPrefix("/") else { return nil }
        return text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { token in
            // Most tokens have no escape; those are taken as they are.
            guard token.utf8.contains(UInt8(ascii: "~")) else { return String(token) }
            return String(token).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }

    /// `tokens` written as a pointer.
    package static func text(_ tokens: [String]) -> String {
        var text = ""
        for token in tokens {
            text += "/"
            // Most tokens have neither character to escape; those are appended as they are.
            guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
                text += token
                continue
            }
            for character in token.unicodeScalars {
                switch character {
                case "~": text += "~0"
                case "/": text += "~1"
                default: text.unicodeScalars.append(character)
                }
            }
        }
        return text
    }

    /// The value at `tokens` in `root`, or nil when the path leads nowhere.
    package static func value(at tokens: [String], in root: JSONValue) -> JSONValue? {
        var current = root
        for token in tokens {
            guard let next = member(token, of: current) else { return nil }
            current = next
        }
        return current
    }

    /// The value one token below `value`: an object's member, or an array's item by its index written plainly.
    package static func member(_ token: String, of value: JSONValue) -> JSONValue? {
        switch value {
        case .object(let object):
            return object[token]
        case .array(let items):
            guard let index = Int(token), index >= 0, index < items.count, String(index) == token else { return nil }
            return items[index]
        default:
            return nil
        }
    }
}

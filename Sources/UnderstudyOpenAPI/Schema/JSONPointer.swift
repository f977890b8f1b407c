import Foundation
import UnderstudyJSON

/// JSON pointers (RFC 6901): reading one, writing one, and following one into a tree.
package enum JSONPointer {
    /// The tokens of `pointer` (`/a~1b/0` is `a/b`, `0`); percent-decoded first when it came from a URI fragment.
    package static func tokens(_ pointer: String, percentDecoded: Bool = true) -> [String]? {
        let text = percentDecoded ? (pointer.removingPercentEncoding ?? pointer) : pointer
        guard !text.isEmpty else { return [] }
        guard text.hasPrefix("/") else { return nil }
        return text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }

    /// `tokens` written as a pointer.
    package static func text(_ tokens: [String]) -> String {
        tokens.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
    }

    /// The value at `tokens` in `root`, or nil when the path leads nowhere.
    package static func value(at tokens: [String], in root: JSONValue) -> JSONValue? {
        var current = root
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(token), index >= 0, index < items.count, String(index) == token else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}

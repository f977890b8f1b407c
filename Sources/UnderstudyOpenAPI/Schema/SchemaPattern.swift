import Foundation

/// A `pattern` (or a `patternProperties` name), compiled once: ECMA-262 regular expressions read by
/// NSRegularExpression, which agrees on the syntax documents use (classes, quantifiers, anchors, groups), and
/// searched for, not anchored, as JSON Schema says.
package struct SchemaPattern: @unchecked Sendable {
    // `@unchecked Sendable`: NSRegularExpression is immutable once made and safe to match from any thread (Apple's
    // documentation says so); Foundation does not mark it Sendable on every platform.
    package let source: String
    private let expression: NSRegularExpression?

    package init(_ source: String) {
        self.source = source
        expression = try? NSRegularExpression(pattern: SchemaPattern.translated(source), options: [])
    }

    /// Whether the pattern compiled.
    package var isValid: Bool { expression != nil }

    /// Whether `text` holds a match (an invalid pattern matches everything: it was reported when loaded).
    package func matches(_ text: String) -> Bool {
        guard let expression else { return true }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// ECMA-262's `\d`, `\w` and `\s` are ASCII (and JavaScript's whitespace) where ICU's are Unicode: each is
    /// written as its ASCII class outside brackets, so `\d` does not match `৪`.
    private static func translated(_ source: String) -> String {
        guard source.contains("\\") else { return source }
        var result = ""
        var escaped = false
        var inClass = false
        for character in source {
            if escaped {
                escaped = false
                switch character {
                case "d": result += inClass ? "0-9" : "[0-9]"
                case "D": result += inClass ? "\\D" : "[^0-9]"
                case "w": result += inClass ? "a-zA-Z0-9_" : "[a-zA-Z0-9_]"
                case "W": result += inClass ? "\\W" : "[^a-zA-Z0-9_]"
                default: result += "\\" + String(character)
                }
                continue
            }
            switch character {
            case "\\": escaped = true
            case "[": inClass = true; result.append(character)
            case "]": inClass = false; result.append(character)
            default: result.append(character)
            }
        }
        if escaped { result += "\\" }
        return result
    }
}

/// The one reader of the fault grammar: `;`-separated directives, each `name` or `name=value`.
///
/// ``Fault/init(parsing:)`` reads with it, and so does the server, which adds `checkingCombinations`: the checks
/// of the spec as a whole (its length, a directive given twice, a clash such as `status=503; empty`, `message`
/// with no status). Errors name the directive as written and its 1-based byte position; their words are what the
/// server's 400 carries.
package enum FaultGrammar {
    /// The longest spec the server accepts, so a header cannot make it do unbounded work.
    package static let maximumLength = 1_024

    /// A directive as written in a spec, and what it reads as.
    package struct Written: Sendable {
        /// The typed directive.
        package let directive: Fault.Directive
        /// The value after `=` as written, trimmed (nil for a flag).
        package let value: String?
        /// The directive as written, trimmed: what an error names.
        package let written: String
        /// The 1-based byte position of the directive in the spec.
        package let position: Int

        /// The directive's name.
        package var name: Fault.Directive.Name { directive.name }

        /// `name` or `name=value`, the name in lower case and the value as written: the server's normalised
        /// text, which `X-Understudy-Fault-Applied` reports.
        package var text: String { value.map { "\(name.rawValue)=\($0)" } ?? name.rawValue }

        func error(_ reason: String) -> FaultSpecError {
            FaultSpecError(directive: written, position: position, reason: reason)
        }
    }

    /// Reads `text` into its directives, in order; empty directives (`;;`) are skipped.
    ///
    /// - Parameters:
    ///   - text: The spec.
    ///   - checkingCombinations: Whether to refuse what the server refuses of a spec as a whole: a spec longer
    ///     than ``maximumLength``, a directive given twice, one that clashes with an earlier one, and `message` or
    ///     `retry-after` with no status to go with. Each directive is checked as it is read, so the first problem
    ///     in the text is the one reported.
    /// - Throws: `FaultSpecError` naming the directive, its position and the problem.
    package static func parse(_ text: String, checkingCombinations: Bool) throws(FaultSpecError) -> [Written] {
        if checkingCombinations { try checkLength(text, of: text) }
        var parsed: [Written] = []
        var position = 1
        // Split on bytes, not Characters: a combining mark after `;` or `=` would join it into one grapheme and
        // hide the separator, so a value starting with one would not survive its own normalised text.
        for raw in text.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            defer { position += raw.count + 1 }
            let written = trimmed(String(Substring(raw)))
            guard !written.isEmpty else { continue }
            let offset = position + raw.prefix(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }).count
            let name: String
            let value: String?
            if let equals = written.utf8.firstIndex(of: UInt8(ascii: "=")) {
                name = trimmed(String(Substring(written.utf8[..<equals]))).lowercased()
                value = trimmed(String(Substring(written.utf8[written.utf8.index(after: equals)...])))
            } else {
                name = written.lowercased()
                value = nil
            }
            do throws(Problem) {
                let directive = Written(directive: try self.directive(name: name, value: value), value: value,
                                        written: written, position: offset)
                if checkingCombinations { try checkAgainst(parsed, directive) }
                parsed.append(directive)
            } catch {
                throw FaultSpecError(directive: written, position: offset, reason: error.reason)
            }
        }
        if checkingCombinations {
            try checkCompanions(parsed)
            // The normalised text is what X-Understudy-Fault-Applied reports; it must itself be a valid spec.
            try checkLength(parsed.map(\.text).joined(separator: "; "), of: text)
        }
        return parsed
    }

    /// Why a directive is refused, before its position is known.
    struct Problem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func checkLength(_ candidate: String, of text: String) throws(FaultSpecError) {
        guard candidate.utf8.count <= maximumLength else {
            throw FaultSpecError(directive: String(text.prefix(32)) + "…", position: 1,
                                 reason: "the spec is longer than \(maximumLength) bytes")
        }
    }

    /// The text without leading and trailing white space as JavaScript's `trim` sees it (WhiteSpace and
    /// LineTerminator: not Swift's isWhitespace, which also strips U+0085).
    static func trimmed(_ text: String) -> String {
        let isSpace: (Unicode.Scalar) -> Bool = { scalar in
            switch scalar.value {
            case 0x09...0x0D, 0x20, 0xA0, 0xFEFF, 0x2028, 0x2029: true
            default: scalar.properties.generalCategory == .spaceSeparator
            }
        }
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !isSpace($0) }), let end = scalars.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(scalars[start...end])
    }
}

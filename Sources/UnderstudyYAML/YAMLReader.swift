import CFYAML
import Foundation
import UnderstudyJSON

/// Reads YAML into the JSON trees JSON tools would see: one value per document, built from libyaml's parser events
/// (the parser checks the syntax; this builds the tree and resolves plain scalars with YAML 1.2's core schema).
///
/// A key given twice in one mapping is an error, as is a key that is itself a mapping or a sequence (JSON keys are
/// strings). Aliases are expanded within a budget of nodes and nesting is bounded (`YAMLOptions`); `<<` merges only
/// when asked. Every error names its line and column.
package enum YAMLReader {
    /// Every document of `bytes`, in order (an empty text has none).
    package static func documents(_ bytes: [UInt8], options: YAMLOptions = YAMLOptions()) throws(YAMLError) -> [JSONValue] {
        var builder = YAMLTreeBuilder(options: options)
        try YAMLEvents.parse(bytes) { event throws(YAMLError) in try builder.take(event) }
        return builder.documents
    }

    /// The one document of `bytes`: an error when there is none, or more than one.
    package static func document(_ bytes: [UInt8], options: YAMLOptions = YAMLOptions()) throws(YAMLError) -> JSONValue {
        try documentAndPositions(bytes, options: options).tree
    }

    /// The one document of `bytes` and where its values start (nil with merge keys on: find them with
    /// `position(of:in:)`, which reads the text again).
    package static func documentAndPositions(_ bytes: [UInt8], options: YAMLOptions = YAMLOptions())
        throws(YAMLError) -> (tree: JSONValue, positions: YAMLPositions?) {
        var builder = YAMLTreeBuilder(options: options)
        try YAMLEvents.parse(bytes) { event throws(YAMLError) in try builder.take(event) }
        let all = builder.documents
        guard all.count == 1 else {
            throw YAMLError(line: 1, column: 1, reason: all.isEmpty ? "the file holds no document"
                                                                    : "the file holds \(all.count) documents; one is expected")
        }
        return (all[0], options.mergeKeys ? nil : builder.positions)
    }
}

/// One parser event, as the tree builder reads it: its kind, its text and tag for a scalar, its anchor, and where
/// it starts (1-based).
struct YAMLEvent {
    enum Kind {
        case documentStart, documentEnd
        case sequenceStart, sequenceEnd
        case mappingStart, mappingEnd
        case scalar(text: String, plain: Bool, tag: String?)
        case alias(String)
    }

    var kind: Kind
    var anchor: String?
    var line: Int
    var column: Int
}

/// libfyaml's event parser over a byte buffer.
///
/// Why libfyaml: on yaml-test-suite's 402 cases it is right on all of them (0.7.12, Debian's, and 0.9.3,
/// Homebrew's, alike), where libyaml 0.2.5 is right on 330 and refuses valid forms real documents use (`{"a":b}`
/// flow maps, zero-indented block scalars, tabs); on OpenAI's 3 MB document both parse at tens of MB/s. Only its
/// event API is used, identical in both versions; its tree API would recurse, and stops at 64 levels by default.
enum YAMLEvents {
    /// Calls `body` with each event of `bytes`, in order; the parser's own error is thrown with its position.
    static func parse(_ bytes: [UInt8], _ body: (YAMLEvent) throws(YAMLError) -> Void) throws(YAMLError) {
        // The parser's messages go to `report`, not to stderr: the first error becomes the thrown one.
        let report = DiagnosticReport()
        var diagnostics = fy_diag_cfg()
        fy_diag_cfg_default(&diagnostics)
        diagnostics.fp = nil
        diagnostics.colorize = false
        diagnostics.user = Unmanaged.passUnretained(report).toOpaque()
        diagnostics.output_fn = { _, user, text, length in
            guard let user, let text else { return }
            Unmanaged<DiagnosticReport>.fromOpaque(user).takeUnretainedValue()
                .text += String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
        }
        guard let diag = fy_diag_create(&diagnostics) else {
            throw YAMLError(line: 1, column: 1, reason: "libfyaml could not start a parser")
        }
        defer { fy_diag_destroy(diag) }
        var configuration = fy_parse_cfg()
        // The text is in memory already and read once, front to back: libfyaml's input buffering and its access
        // accelerators (for documents built and queried, not for events) only cost here, about 40 % of a 3 MB read.
        configuration.flags = fy_parse_cfg_flags(rawValue: FYPCF_QUIET.rawValue | FYPCF_JSON_NONE.rawValue
                                                 | FYPCF_DISABLE_ACCELERATORS.rawValue | FYPCF_DISABLE_BUFFERING.rawValue)
        configuration.diag = diag
        guard let parser = fy_parser_create(&configuration) else {
            throw YAMLError(line: 1, column: 1, reason: "libfyaml could not start a parser")
        }
        defer { fy_parser_destroy(parser) }
        // The parser reads the buffer in place, so it stays put until the last event: it is pinned for the loop.
        let input = bytes.isEmpty ? [0] : bytes
        try input.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) throws(YAMLError) in
            let text = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            guard fy_parser_set_string(parser, text, bytes.count) == 0 else {
                throw YAMLError(line: 1, column: 1, reason: "libfyaml could not read the text")
            }
            while let event = fy_parser_parse(parser) {
                defer { fy_parser_event_free(parser, event) }
                if let converted = convert(event) { try body(converted) }
            }
            if fy_parser_get_stream_error(parser) { throw report.firstError }
        }
    }

    /// What the parser said, as it said it: `<source>:LINE:COLUMN: error: REASON`, then the line and a caret.
    private final class DiagnosticReport {
        var text = ""

        /// The first error's position and reason.
        var firstError: YAMLError {
            for line in text.split(separator: "\n") {
                guard let marker = line.range(of: ": error: ") else { continue }
                let place = line[..<marker.lowerBound].split(separator: ":").suffix(2).compactMap { Int($0) }
                let reason = String(line[marker.upperBound...])
                return place.count == 2 ? YAMLError(line: place[0], column: place[1], reason: reason)
                                        : YAMLError(line: 1, column: 1, reason: reason)
            }
            return YAMLError(line: 1, column: 1, reason: "not YAML")
        }
    }

    private static func text(_ token: OpaquePointer?) -> String? {
        guard let token else { return nil }
        var length = 0
        guard let start = fy_token_get_text(token, &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
    }

    private static func convert(_ event: UnsafeMutablePointer<fy_event>) -> YAMLEvent? {
        // Implicit document starts and every document end have no mark (libfyaml 0.7.12).
        let mark = fy_event_start_mark(event)?.pointee
        let line = Int(mark?.line ?? 0) + 1
        let column = Int(mark?.column ?? 0) + 1
        switch event.pointee.type {
        case FYET_DOCUMENT_START:
            return YAMLEvent(kind: .documentStart, line: line, column: column)
        case FYET_DOCUMENT_END:
            return YAMLEvent(kind: .documentEnd, line: line, column: column)
        case FYET_SEQUENCE_START:
            return YAMLEvent(kind: .sequenceStart, anchor: text(event.pointee.sequence_start.anchor), line: line, column: column)
        case FYET_SEQUENCE_END:
            return YAMLEvent(kind: .sequenceEnd, line: line, column: column)
        case FYET_MAPPING_START:
            return YAMLEvent(kind: .mappingStart, anchor: text(event.pointee.mapping_start.anchor), line: line, column: column)
        case FYET_MAPPING_END:
            return YAMLEvent(kind: .mappingEnd, line: line, column: column)
        case FYET_SCALAR:
            let scalar = event.pointee.scalar
            let plain = fy_token_scalar_style(scalar.value) == FYSS_PLAIN
            return YAMLEvent(kind: .scalar(text: text(scalar.value) ?? "", plain: plain, tag: text(scalar.tag)),
                             anchor: text(scalar.anchor), line: line, column: column)
        case FYET_ALIAS:
            return YAMLEvent(kind: .alias(text(event.pointee.alias.anchor) ?? ""), line: line, column: column)
        default:
            return nil
        }
    }
}

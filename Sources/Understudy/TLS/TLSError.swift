import COpenSSL

/// Why a certificate could not be made, read or served.
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in words, naming the file or the setting.
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// `what` failed inside OpenSSL: its error queue, emptied, says why.
    static func openSSL(_ what: String) -> TLSError {
        TLSError("\(what): \(openSSLReasons())")
    }

    /// OpenSSL's queued errors as one line (the queue is per thread, and left empty).
    package static func openSSLReasons() -> String {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            reasons.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons.isEmpty ? "no reason given" : reasons.joined(separator: "; ")
    }
}

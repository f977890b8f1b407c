import Foundation
import Testing

/// What evhttp's own refusals (a body or head over the limit, a method or request line it does not take) look
/// like on the wire: the status evhttp chose, rewritten on the way out into JSON `{"message"}` (RefusalPages.c in
/// `CHeaderLines`), with `Connection: close`.
enum EvhttpRefusal {
    /// Checks a refusal with `status`, `contentType` and `body`; `message`, when given, is the message's start.
    static func expect(status: Int?, contentType: String?, body: [UInt8], _ expected: Int, message: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == expected, sourceLocation: sourceLocation)
        #expect(contentType == "application/json; charset=utf-8", sourceLocation: sourceLocation)
        let text = String(decoding: body, as: UTF8.self)
        let decoded = try? JSONDecoder().decode(MessageReply.self, from: Data(body))
        #expect(decoded?.message.isEmpty == false, "\(text)", sourceLocation: sourceLocation)
        if let message { #expect(decoded?.message.hasPrefix(message) == true, "\(text)", sourceLocation: sourceLocation) }
    }

    /// Checks a refusal read from a raw socket: the JSON reply, the whole head, and that it ends the connection.
    static func expect(_ response: RawResponse, _ expected: Int, message: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        expect(status: response.status, contentType: response.header("Content-Type"), body: response.body, expected,
               message: message, sourceLocation: sourceLocation)
        #expect(response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(response.header("Content-Length") == String(response.body.count), sourceLocation: sourceLocation)
    }
}

import Foundation
import Testing
@testable import Understudy

/// What evhttp's own refusals (a body or head over the limit, a method or request line it does not take) look
/// like in this build. With the `HeadLineWriter` trait (the `understudy` binary, `make sanitize`) they are JSON
/// `{"message"}`; without it (a package's default, `make test`) evhttp sends libevent's HTML page, since only
/// overriding a libevent symbol can change it. Either way the status is right and the server goes on.
enum EvhttpRefusal {
    static var isJSON: Bool { HTTPTransport.writesHeadLinesDirectly }

    /// Checks a refusal with `status`, `contentType` and `body`; `message`, when given, is the JSON message's
    /// start (checked only where refusals are JSON: libevent's page names the status instead).
    static func expect(status: Int?, contentType: String?, body: [UInt8], _ expected: Int, message: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == expected, sourceLocation: sourceLocation)
        let text = String(decoding: body, as: UTF8.self)
        if isJSON {
            #expect(contentType == "application/json; charset=utf-8", sourceLocation: sourceLocation)
            struct Message: Decodable { let message: String }
            let decoded = try? JSONDecoder().decode(Message.self, from: Data(body))
            #expect(decoded?.message.isEmpty == false, "\(text)", sourceLocation: sourceLocation)
            if let message { #expect(decoded?.message.hasPrefix(message) == true, "\(text)", sourceLocation: sourceLocation) }
        } else {
            #expect(contentType == "text/html", sourceLocation: sourceLocation)
            #expect(text.contains("<TITLE>\(expected) "), "\(text)", sourceLocation: sourceLocation)
        }
    }
}

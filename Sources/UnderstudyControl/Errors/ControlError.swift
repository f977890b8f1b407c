import Foundation

/// The one error every ``ControlClient`` call throws: what went wrong, and the server's own words.
///
/// ```swift
/// do {
///     try await control.addRule(Rule(fault: .status(503)))
/// } catch where error.kind == .invalidFaultSpec {
///     print(error.faultSpec?.directive, error.faultSpec?.position)
/// }
/// ```
public struct ControlError: Error, Sendable, CustomStringConvertible {
    /// What went wrong: an open set, matched like enum cases (a `switch` needs a `default`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name, e.g. `notFound`.
        public let description: String

        private init(_ name: String) {
            description = name
        }

        /// 400 for a fault spec the server refused; see ``ControlError/faultSpec``.
        public static let invalidFaultSpec = Kind("invalidFaultSpec")
        /// 400 (or 413, 415): the server refused a field; ``ControlError/message`` names it.
        public static let badRequest = Kind("badRequest")
        /// 401: the server needs its admin token (``ControlClient/token``) and got none or a wrong one.
        public static let unauthorized = Kind("unauthorized")
        /// 403: the server refused admin access (bound beyond loopback without a token, a foreign origin or host).
        public static let forbidden = Kind("forbidden")
        /// 404: no such rule, session, scenario or admin route.
        public static let notFound = Kind("notFound")
        /// 409: the server cannot do that in its state (recording without an upstream, stopping a recording that
        /// is not running); ``ControlError/message`` says why.
        public static let conflict = Kind("conflict")
        /// Any other status outside 2xx.
        public static let httpStatus = Kind("httpStatus")
        /// The server could not be reached, or the exchange failed on the way.
        public static let transportFailed = Kind("transportFailed")
        /// A 2xx reply whose body was not what the admin API answers.
        public static let decodingFailed = Kind("decodingFailed")
        /// The base URL and path did not make a URL.
        public static let invalidURL = Kind("invalidURL")
    }

    /// The classification.
    public var kind: Kind
    /// The HTTP status, for kinds that come from a reply.
    public var status: Int?
    /// The server's `{"message": …}`, when the reply had one.
    public var message: String?
    /// For ``Kind/invalidFaultSpec``: the directive the server refused, where and why.
    public var faultSpec: FaultSpecError?
    /// The request's method and URL.
    public var request: String
    /// The underlying error, described (transport and decoding failures).
    public var underlying: String?

    /// Creates an error; ``ControlClient`` fills in the context.
    ///
    /// - Parameters:
    ///   - kind: The classification.
    ///   - request: The method and URL, e.g. `POST http://localhost:8080/__understudy/faults`.
    public init(_ kind: Kind, request: String) {
        self.kind = kind
        self.request = request
    }

    /// The kind, the status, the server's message (or the underlying error) and the request, in one line.
    public var description: String {
        var text = "\(kind)"
        if let status { text += " (\(status))" }
        if let message { text += ": \(message)" } else if let underlying { text += ": \(underlying)" }
        return text + " — \(request)"
    }

    /// Classifies an error reply from its status and `{"message", "directive", "position", "reason"}` body.
    static func reply(status: Int, body: Data, request: String) -> ControlError {
        let fields = try? JSONDecoder().decode(ErrorBody.self, from: body)
        var error = ControlError(.httpStatus, request: request)
        error.status = status
        error.message = fields?.message
        switch status {
        case 400, 413, 415: error.kind = .badRequest
        case 401: error.kind = .unauthorized
        case 403: error.kind = .forbidden
        case 404: error.kind = .notFound
        case 409: error.kind = .conflict
        default: break
        }
        if status == 400 {
            if let directive = fields?.directive, let position = fields?.position, let reason = fields?.reason {
                error.faultSpec = FaultSpecError(directive: directive, position: position, reason: reason)
            } else if let message = fields?.message {
                error.faultSpec = ControlError.faultSpec(quotedIn: message)
            }
            if error.faultSpec != nil { error.kind = .invalidFaultSpec }
        }
        return error
    }

    /// The directive, position and reason in a message quoting the parser:
    /// `… invalid fault spec: directive 'stauts=503' at position 1: unknown directive …`.
    static func faultSpec(quotedIn message: String) -> FaultSpecError? {
        guard let start = message.range(of: "invalid fault spec: directive '") else { return nil }
        let rest = message[start.upperBound...]
        guard let end = rest.range(of: "' at position ") else { return nil }
        let directive = String(rest[..<end.lowerBound])
        let afterPosition = rest[end.upperBound...]
        let digits = afterPosition.prefix(while: \.isNumber)
        guard let position = Int(digits), afterPosition.dropFirst(digits.count).hasPrefix(": ") else { return nil }
        return FaultSpecError(directive: directive, position: position, reason: String(afterPosition.dropFirst(digits.count + 2)))
    }

    private struct ErrorBody: Decodable {
        var message: String?
        var directive: String?
        var position: Int?
        var reason: String?
    }
}

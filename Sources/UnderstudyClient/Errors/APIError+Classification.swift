import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIError {
    /// Classifies any thrown error: an `APIError` passes through, `CancellationError` and `URLError` are mapped,
    /// a `DecodingError` becomes ``Kind/decodingFailed`` and anything else ``Kind/transportFailed``.
    ///
    /// - Parameter error: The error to classify.
    /// - Returns: The classified error, with no request context yet.
    public static func classify(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case is CancellationError:
            return APIError(.cancelled, underlying: "CancellationError")
        case let error as URLError:
            return classify(error)
        case let error as DecodingError:
            return decodingFailed(error, type: "response", body: nil)
        case let error as EncodingError:
            return APIError(.encodingFailed, underlying: String(describing: error))
        default:
            return APIError(.transportFailed, underlying: String(describing: error))
        }
    }

    /// Classifies a `URLError` by its code, including libcurl's code -1 for a body cut short on Linux and its
    /// "Empty reply from server" (a connection closed without a byte), both a lost connection.
    ///
    /// - Parameter error: The transport error.
    /// - Returns: The classified error; ``urlErrorCode`` keeps the original code.
    public static func classify(_ error: URLError) -> APIError {
        let kind: Kind
        switch error.code {
        case .cancelled:
            kind = .cancelled
        case .timedOut:
            kind = .timedOut
        case .notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
             .internationalRoamingOff, .dataNotAllowed, .callIsActive:
            kind = .noConnection
        case .networkConnectionLost:
            kind = .connectionLost
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid:
            kind = certificateKind(error)
        case .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired:
            kind = .tlsHandshakeFailed
        case .badURL, .unsupportedURL:
            kind = .invalidURL
        case .badServerResponse where isEmptyReply(error):
            // FoundationNetworking passes libcurl's CURLE_GOT_NOTHING ("Empty reply from server": the connection
            // closed before a single byte) as badServerResponse; it is a dropped connection, not a bad reply, and
            // a GET is worth sending again. Darwin reports it as networkConnectionLost.
            kind = .connectionLost
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            kind = .invalidResponse
        case .unknown where isTLSFailure(error):
            // FoundationNetworking passes libcurl's TLS failures as code -1 with libcurl's text; Darwin has codes.
            kind = isCertificateRefusal(error) ? certificateKind(error) : .tlsHandshakeFailed
        case .unknown where isTruncatedTransfer(error):
            // FoundationNetworking passes libcurl's CURLE_PARTIAL_FILE through as code -1 with libcurl's text;
            // Darwin reports the same short body as networkConnectionLost.
            kind = .connectionLost
        default:
            kind = .transportFailed
        }
        var result = APIError(kind, underlying: describe(error))
        result.urlErrorCode = error.code.rawValue
        return result
    }

    /// Classifies a response: nil for 2xx, otherwise the kind its status calls for, with the headers, body,
    /// server message and Retry-After attached.
    ///
    /// - Parameters:
    ///   - response: The HTTP response.
    ///   - body: The body received with it.
    /// - Returns: nil when the status is in 200..<300.
    public static func classify(_ response: HTTPURLResponse, body: Data?) -> APIError? {
        let status = response.statusCode
        guard !(200..<300).contains(status) else { return nil }
        let kind: Kind = switch status {
        case 401: .unauthorized
        case 429: .rateLimited
        case 500...599: .serverError
        default: .httpStatus
        }
        var error = APIError(kind)
        error.status = status
        error.headers = Self.headers(of: response)
        error.body = body
        error.serverMessage = ServerMessage.extract(from: body)
        error.retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap(RetryAfter.init(headerValue:))
        error.url = response.url
        return error
    }

    /// Builds a ``Kind/decodingFailed`` error naming the type, the coding path and the reason.
    ///
    /// - Parameters:
    ///   - error: What the decoder threw.
    ///   - type: The type that was being decoded.
    ///   - body: The body that failed to decode.
    /// - Returns: The classified error.
    public static func decodingFailed(_ error: DecodingError, type: String, body: Data?) -> APIError {
        let (path, reason): ([any CodingKey], String) = switch error {
        case .typeMismatch(let expected, let context):
            (context.codingPath, "expected \(expected): \(context.debugDescription)")
        case .valueNotFound(let expected, let context):
            (context.codingPath, "missing \(expected) value: \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            (context.codingPath + [key], "key '\(key.stringValue)' not found")
        case .dataCorrupted(let context):
            (context.codingPath, context.debugDescription)
        @unknown default:
            ([], String(describing: error))
        }
        var result = APIError(.decodingFailed)
        result.decoding = DecodingContext(type: type, codingPath: render(path), reason: reason)
        result.body = body
        return result
    }

    /// `products[3].price` rather than the raw key list.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    static func headers(of response: HTTPURLResponse) -> ResponseHeaders {
        var headers: ResponseHeaders = [:]
        for (name, value) in response.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        return headers
    }

    /// FoundationNetworking passes libcurl's text, which names the reason ("certificate has expired", "no
    /// alternative certificate subject name matches"). Darwin reports nearly every refused certificate as
    /// `serverCertificateUntrusted`: the client's own sends evaluate the attached trust again to say why (off the
    /// main thread, which this public function cannot promise), see `SessionRouter.classify(_:host:)`.
    private static func certificateKind(_ error: URLError) -> Kind {
        if error.code == .serverCertificateHasBadDate || error.code == .serverCertificateNotYetValid { return .certificateExpired }
        let text = describe(error).lowercased()
        if text.contains("expired") || text.contains("not yet valid") { return .certificateExpired }
        if text.contains("subject name") || text.contains("host name") || text.contains("hostname") { return .wrongHost }
        return .untrustedCertificate
    }

    /// libcurl's words for a certificate it refused ("SSL certificate problem: …", "SSL: no alternative
    /// certificate subject name matches …"), or any other TLS failure: an OpenSSL error, or a reset on an https URL
    /// (libcurl words a reset during the handshake and one after it alike; over https the handshake is the likely
    /// one, and a reset fault is what a TLS test queues).
    private static func isTLSFailure(_ error: URLError) -> Bool {
        let text = describe(error).lowercased()
        let https = error.failingURL?.scheme?.lowercased() == "https"
        return isCertificateRefusal(error) || text.contains("ssl") || text.contains("tls")
            || (https && text.contains("connection reset by peer"))
    }

    private static func isCertificateRefusal(_ error: URLError) -> Bool {
        let text = describe(error).lowercased()
        return text.contains("certificate problem") || text.contains("certificate subject name")
    }

    private static func isTruncatedTransfer(_ error: URLError) -> Bool {
        let text = describe(error).lowercased()
        return text.contains("transfer closed") || text.contains("bytes remaining")
    }

    private static func isEmptyReply(_ error: URLError) -> Bool {
        describe(error).lowercased().contains("empty reply from server")
    }

    private static func describe(_ error: URLError) -> String {
        if let text = error.userInfo[NSLocalizedDescriptionKey] as? String { return "URLError \(error.code.rawValue): \(text)" }
        return "URLError \(error.code.rawValue): \(error.localizedDescription)"
    }
}

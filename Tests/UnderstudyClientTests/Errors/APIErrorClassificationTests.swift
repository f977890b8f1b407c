import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import UnderstudyClient

@Suite struct APIErrorClassificationTests {
    @Test(arguments: [
        (URLError.Code.cancelled, APIError.Kind.cancelled),
        (.timedOut, .timedOut),
        (.notConnectedToInternet, .noConnection),
        (.cannotConnectToHost, .noConnection),
        (.cannotFindHost, .noConnection),
        (.dnsLookupFailed, .noConnection),
        (.networkConnectionLost, .connectionLost),
        (.badURL, .invalidURL),
        (.unsupportedURL, .invalidURL),
        (.badServerResponse, .invalidResponse),
        (.cannotParseResponse, .invalidResponse),
        (.secureConnectionFailed, .tlsHandshakeFailed),
        (.clientCertificateRequired, .tlsHandshakeFailed),
        (.serverCertificateUntrusted, .untrustedCertificate),
        (.serverCertificateHasUnknownRoot, .untrustedCertificate),
        (.serverCertificateHasBadDate, .certificateExpired),
        (.serverCertificateNotYetValid, .certificateExpired),
        (.unknown, .transportFailed),
    ])
    func urlErrorCodes(code: URLError.Code, kind: APIError.Kind) {
        let error = APIError.classify(URLError(code))
        #expect(error.kind == kind)
        #expect(error.urlErrorCode == code.rawValue)
    }

    @Test func linuxTruncatedBodyIsALostConnection() {
        let curl = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "transfer closed with 12 bytes remaining to read"])
        #expect(APIError.classify(curl).kind == .connectionLost)
        #expect(APIError.classify(curl as any Error).kind == .connectionLost)
    }

    @Test func linuxEmptyReplyIsALostConnection() {
        let curl = URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "Empty reply from server"])
        let error = APIError.classify(curl)
        #expect(error.kind == .connectionLost)
        #expect(error.urlErrorCode == URLError.Code.badServerResponse.rawValue)
        #expect(error.isTransient)
        let unparsable = URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "Unsupported HTTP version"])
        #expect(APIError.classify(unparsable).kind == .invalidResponse)
    }

    /// FoundationNetworking passes libcurl's verification text with `serverCertificateUntrusted`; the text names
    /// why (these are OpenSSL's words, as curl prints them for `understudy`'s TLS faults).
    @Test(arguments: [
        ("SSL certificate problem: certificate has expired", APIError.Kind.certificateExpired),
        ("SSL: no alternative certificate subject name matches target host name 'localhost'", .wrongHost),
        ("SSL certificate problem: unable to get local issuer certificate", .untrustedCertificate),
        ("SSL certificate problem: self-signed certificate", .untrustedCertificate),
    ])
    func linuxCertificateTextNamesTheReason(text: String, kind: APIError.Kind) {
        let curl = URLError(.serverCertificateUntrusted, userInfo: [NSLocalizedDescriptionKey: text])
        #expect(APIError.classify(curl).kind == kind)
        #expect(APIError.classify(curl).urlErrorCode == URLError.Code.serverCertificateUntrusted.rawValue)
    }

    /// What FoundationNetworking really passes for the TLS faults (checked against `understudy --tls` in
    /// TLSFailureTests): code -1 with libcurl's text, and the URL.
    @Test(arguments: [
        ("SSL certificate problem: unable to get local issuer certificate", "https://localhost:1", APIError.Kind.untrustedCertificate),
        ("SSL certificate problem: certificate has expired", "https://localhost:1", .certificateExpired),
        ("SSL: no alternative certificate subject name matches target host name 'a'", "https://a:1", .wrongHost),
        ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to localhost:1", "https://localhost:1", .tlsHandshakeFailed),
        ("Recv failure: Connection reset by peer", "https://reset.localhost:1", .tlsHandshakeFailed),
        ("Recv failure: Connection reset by peer", "http://localhost:1", .transportFailed),
    ])
    func linuxUnknownCodeWithTLSTextIsATLSKind(text: String, url: String, kind: APIError.Kind) {
        let curl = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: text, NSURLErrorFailingURLErrorKey: URL(string: url)!])
        #expect(APIError.classify(curl).kind == kind)
    }

    @Test func cancellationErrorIsCancelled() {
        #expect(APIError.classify(CancellationError()).kind == .cancelled)
    }

    @Test func otherErrorsAreTransportFailures() {
        struct Odd: Error {}
        #expect(APIError.classify(Odd()).kind == .transportFailed)
        #expect(APIError.classify(APIError(.rateLimited)).kind == .rateLimited)
    }

    @Test(arguments: [
        (200, nil), (204, nil), (299, nil),
        (301, APIError.Kind.httpStatus), (400, .httpStatus), (401, .unauthorized), (403, .httpStatus),
        (404, .httpStatus), (408, .httpStatus), (429, .rateLimited), (500, .serverError), (503, .serverError),
        (599, .serverError),
    ] as [(Int, APIError.Kind?)])
    func statuses(status: Int, kind: APIError.Kind?) throws {
        let url = try #require(URL(string: "http://example.test/x"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: [:]))
        #expect(APIError.classify(response, body: Data())?.kind == kind)
    }

    @Test func statusErrorsCarryHeadersBodyMessageAndRetryAfter() throws {
        let url = try #require(URL(string: "http://example.test/x"))
        let body = Data(#"{"message":"request limit exceeded, please wait a few seconds"}"#.utf8)
        let response = try #require(HTTPURLResponse(url: url, statusCode: 429, httpVersion: nil,
                                                    headerFields: ["Retry-After": "3", "X-RateLimit-Limit": "100"]))
        let error = try #require(APIError.classify(response, body: body))
        #expect(error.kind == .rateLimited)
        #expect(error.status == 429)
        #expect(error.retryAfter == .seconds(3))
        #expect(error.serverMessage == "request limit exceeded, please wait a few seconds")
        #expect(error.body == body)
        // Apple canonicalises names (X-Ratelimit-Limit), libcurl keeps them: every spelling finds the field.
        #expect(error.headers["x-ratelimit-limit"] == "100")
        #expect(error.headers["X-RateLimit-Limit"] == "100")
        #expect(error.headers["RETRY-AFTER"] == "3")
        #expect(error.headers["X-Missing"] == nil)
        #expect(error.url == url)
    }

    @Test func problemJSONAndHTMLBodies() throws {
        let url = try #require(URL(string: "http://example.test/x"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 503, httpVersion: nil, headerFields: [:]))
        let problem = Data(#"{"status":503,"title":"Down","type":"about:blank","detail":"Down","message":"Down"}"#.utf8)
        #expect(APIError.classify(response, body: problem)?.serverMessage == "Down")
        #expect(APIError.classify(response, body: Data("<html></html>".utf8))?.serverMessage == nil)
    }

    @Test func decodingErrorsNameTypeAndPath() throws {
        struct Page: Decodable { let products: [Inner] }
        struct Inner: Decodable { let price: Double }
        let body = Data(#"{"products":[{"price":1.5},{"price":"x"}]}"#.utf8)
        do {
            _ = try JSONDecoder().decode(Page.self, from: body)
            Issue.record("expected a decoding error")
        } catch let error as DecodingError {
            let classified = APIError.decodingFailed(error, type: "Page", body: body)
            #expect(classified.kind == .decodingFailed)
            #expect(classified.decoding?.codingPath == "products[1].price")
            #expect(classified.description.contains("Page at products[1].price"))
        }
    }

    @Test func descriptionIsReadable() throws {
        var error = APIError(.serverError)
        error.method = .get
        error.url = URL(string: "http://h.test/products")
        error.status = 503
        error.serverMessage = "Maintenance"
        error.attempts = 3
        #expect(error.description == #"APIError(GET http://h.test/products: serverError 503: "Maintenance": after 3 attempts)"#)
    }
}

extension APIError {
    /// What went wrong: an open set of kinds, compared with `==` or matched in a `switch` like enum cases.
    ///
    /// A struct wrapping a private code rather than a public enum, so a kind can be added without breaking a
    /// caller's `switch` (which therefore needs a `default`).
    ///
    /// ```swift
    /// switch error.kind {
    /// case .unauthorized: showLogin()
    /// case .noConnection, .timedOut: showOffline()
    /// default: show(error.description)
    /// }
    /// ```
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, Sendable, Hashable, CaseIterable {
            case invalidURL, encodingFailed, invalidResponse, httpStatus, unauthorized, rateLimited, serverError
            case decodingFailed, noConnection, timedOut, connectionLost, cancelled, transportFailed, unimplemented
            case untrustedCertificate, certificateExpired, wrongHost, tlsHandshakeFailed, pinMismatch
        }

        private let code: Code

        private init(_ code: Code) {
            self.code = code
        }

        /// The kind's name, e.g. `unauthorized`: stable, with no associated values, safe as a metric label.
        public var description: String { code.rawValue }

        /// The endpoint's path, query or base URL did not make a valid HTTP(S) URL.
        public static let invalidURL = Kind(.invalidURL)
        /// The request body could not be encoded.
        public static let encodingFailed = Kind(.encodingFailed)
        /// The reply was not an HTTP response, or could not be read as one.
        public static let invalidResponse = Kind(.invalidResponse)
        /// A status outside 2xx that no more specific kind covers (400, 403, 404, 408, 409, 422…).
        public static let httpStatus = Kind(.httpStatus)
        /// 401: the token is missing, expired or rejected, and a refresh (if any) did not help.
        public static let unauthorized = Kind(.unauthorized)
        /// 429: the server asked the client to slow down; see ``APIError/retryAfter``.
        public static let rateLimited = Kind(.rateLimited)
        /// A 5xx status.
        public static let serverError = Kind(.serverError)
        /// A 2xx body did not decode into the expected type; see ``APIError/decoding``.
        public static let decodingFailed = Kind(.decodingFailed)
        /// The host could not be reached at all (offline, refused, DNS failure).
        public static let noConnection = Kind(.noConnection)
        /// The server went quiet for longer than the timeout.
        public static let timedOut = Kind(.timedOut)
        /// The connection dropped mid-exchange, including a body cut short of its Content-Length.
        public static let connectionLost = Kind(.connectionLost)
        /// The caller cancelled: `CancellationError` or `URLError.cancelled`.
        public static let cancelled = Kind(.cancelled)
        /// The server's certificate does not chain to a trusted CA (unknown issuer, self-signed). On Apple platforms
        /// also any certificate the system refuses for a reason the client cannot tell apart.
        public static let untrustedCertificate = Kind(.untrustedCertificate)
        /// The server's certificate has expired or is not valid yet.
        public static let certificateExpired = Kind(.certificateExpired)
        /// The server's certificate is not for the host asked for.
        public static let wrongHost = Kind(.wrongHost)
        /// The TLS handshake failed before any certificate was judged: reset, no common protocol, a bad alert.
        public static let tlsHandshakeFailed = Kind(.tlsHandshakeFailed)
        /// The certificate is trusted, but no key in its chain is one of ``APIClient/Configuration/pinnedKeys``
        /// (Apple platforms only: Linux's Foundation lets no client see the server's certificate).
        public static let pinMismatch = Kind(.pinMismatch)
        /// Any other transport failure (redirects, file access for uploads…); see ``APIError/underlying``.
        public static let transportFailed = Kind(.transportFailed)
        /// A stand-in was called that must not be: a closure-based client's `.failing` member, in a test that
        /// should never reach it; ``APIError/underlying`` names the closure.
        public static let unimplemented = Kind(.unimplemented)

        /// Every kind this version knows, for tests that go through them all.
        package static var allCases: [Kind] { Code.allCases.map(Kind.init) }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A JSON API client over one long-lived `URLSession`; `UnderstudyDummyJSON` adds DummyJSON's endpoints and models.
///
/// The client owns its session: it is created from the `URLSessionConfiguration` you pass, with the client's
/// session-level delegate, because on Linux that delegate is the only way to stream a body (`bytes(for:)` does
/// not exist and per-task delegates are ignored for plain data tasks). It never uses `URLSession.shared`.
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "http://localhost:8080")!)
/// let page = try await client.send(Endpoint<Page>(path: "products", queryItems: [.init(name: "limit", value: "10")]))
/// ```
///
/// Every call throws only ``APIError`` (typed throws), so `catch` blocks get the classification directly.
public final class APIClient: Sendable {
    /// Everything a client is made from; every property but `baseURL` has a default.
    public struct Configuration: Sendable {
        /// The absolute `http(s)` URL endpoint paths are resolved against.
        public var baseURL: URL
        /// The session settings; copied when the client is created.
        public var sessionConfiguration: URLSessionConfiguration
        /// Decodes response bodies.
        public var decoder: JSONDecoder
        /// Encodes JSON request bodies.
        public var encoder: JSONEncoder
        /// The middleware around each attempt, outermost first.
        public var middleware: [any Middleware]
        /// When to retry transient failures.
        public var retryPolicy: RetryPolicy
        /// Supplies and refreshes the bearer token; nil sends no token.
        public var auth: (any AuthProvider)?
        /// Conditional GETs by `ETag` for ``APIClient/sendWithResponse(_:)``; nil (the default) keeps none.
        public var etagCache: ETagCache?
        /// The keys HTTPS servers must present one of, checked after the usual trust; nil (the default) pins none.
        /// Enforced on Apple platforms only (see ``PinnedKeys``).
        public var pinnedKeys: PinnedKeys?
        // Test hooks, settable only from this package's tests: the waits, the jitter and the wall clock.
        /// Waits between attempts; ``Sleeper/immediate`` in tests.
        package var sleeper: Sleeper = .continuous
        /// Jitter for backoff; ``RandomSource/constant(_:)`` in tests.
        package var random: RandomSource = .system
        /// The wall clock, for Retry-After dates.
        package var now: @Sendable () -> Date = { Date() }

        /// Creates a configuration with the defaults: an ephemeral session with a 30-second inactivity timeout,
        /// plain JSON coders, no middleware, ``RetryPolicy/standard`` and no authentication.
        ///
        /// - Parameters:
        ///   - baseURL: The absolute `http(s)` base URL.
        ///   - sessionConfiguration: The session settings.
        ///   - decoder: Decodes response bodies.
        ///   - encoder: Encodes JSON request bodies.
        ///   - middleware: The middleware, outermost first.
        ///   - retryPolicy: When to retry.
        ///   - auth: The token provider, nil for none.
        ///   - etagCache: The cache for conditional GETs, nil for none.
        public init(
            baseURL: URL,
            sessionConfiguration: URLSessionConfiguration = Configuration.defaultSessionConfiguration(),
            decoder: JSONDecoder = JSONDecoder(),
            encoder: JSONEncoder = JSONEncoder(),
            middleware: [any Middleware] = [],
            retryPolicy: RetryPolicy = .standard,
            auth: (any AuthProvider)? = nil,
            etagCache: ETagCache? = nil
        ) {
            self.baseURL = baseURL
            self.sessionConfiguration = sessionConfiguration
            self.decoder = decoder
            self.encoder = encoder
            self.middleware = middleware
            self.retryPolicy = retryPolicy
            self.auth = auth
            self.etagCache = etagCache
        }

        /// The public initializer plus the test hooks, for this package's tests.
        package init(
            baseURL: URL,
            sessionConfiguration: URLSessionConfiguration = Configuration.defaultSessionConfiguration(),
            decoder: JSONDecoder = JSONDecoder(),
            encoder: JSONEncoder = JSONEncoder(),
            middleware: [any Middleware] = [],
            retryPolicy: RetryPolicy = .standard,
            auth: (any AuthProvider)? = nil,
            etagCache: ETagCache? = nil,
            sleeper: Sleeper,
            random: RandomSource = .system,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.init(baseURL: baseURL, sessionConfiguration: sessionConfiguration, decoder: decoder, encoder: encoder,
                      middleware: middleware, retryPolicy: retryPolicy, auth: auth, etagCache: etagCache)
            self.sleeper = sleeper
            self.random = random
            self.now = now
        }

        /// Ephemeral (no cookies or cache on disk), a 30-second inactivity timeout, no local cache.
        ///
        /// Cookies are off because DummyJSON also sets the tokens as cookies; the client sends the header instead.
        public static func defaultSessionConfiguration() -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.ephemeral
            // FoundationNetworking truncates to whole seconds, so keep timeouts whole.
            configuration.timeoutIntervalForRequest = 30
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
            return configuration
        }
    }

    /// The settings the client was made with.
    public let configuration: Configuration
    /// The client's session; valid for the client's lifetime.
    public let session: URLSession
    let router: SessionRouter

    /// Creates a client and its session.
    ///
    /// - Parameter configuration: The settings.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let router = SessionRouter(pinnedKeys: configuration.pinnedKeys)
        self.router = router
        // The session keeps its delegate alive until invalidated; the router holds no reference back.
        let sessionConfiguration = configuration.sessionConfiguration.copy() as? URLSessionConfiguration
            ?? configuration.sessionConfiguration
        self.session = URLSession(configuration: sessionConfiguration, delegate: router, delegateQueue: nil)
    }

    /// Creates a client with the default configuration and any of its settings replaced.
    ///
    /// - Parameters:
    ///   - baseURL: The absolute `http(s)` base URL.
    ///   - sessionConfiguration: The session settings.
    ///   - middleware: The middleware, outermost first.
    ///   - retryPolicy: When to retry.
    ///   - auth: The token provider, nil for none.
    public convenience init(
        baseURL: URL,
        sessionConfiguration: URLSessionConfiguration = Configuration.defaultSessionConfiguration(),
        middleware: [any Middleware] = [],
        retryPolicy: RetryPolicy = .standard,
        auth: (any AuthProvider)? = nil
    ) {
        self.init(configuration: Configuration(baseURL: baseURL, sessionConfiguration: sessionConfiguration,
                                               middleware: middleware, retryPolicy: retryPolicy, auth: auth))
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The base URL.
    public var baseURL: URL { configuration.baseURL }
}

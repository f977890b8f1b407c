import Foundation
@testable import UnderstudyClient
import UnderstudyTesting

/// Builders shared by the suites.
enum Fixtures {
    /// A client over a stub host that never really sleeps and always draws the same jitter.
    static func client(
        _ host: StubHost,
        retry: RetryPolicy = .standard,
        auth: (any AuthProvider)? = nil,
        middleware: [any Middleware] = [],
        etagCache: ETagCache? = nil,
        sleeper: Sleeper = .immediate
    ) -> APIClient {
        APIClient(configuration: .init(
            baseURL: host.baseURL,
            sessionConfiguration: host.sessionConfiguration(),
            middleware: middleware,
            retryPolicy: retry,
            auth: auth,
            etagCache: etagCache,
            sleeper: sleeper,
            random: .constant(0.5),
            now: { Date(timeIntervalSince1970: 1_000_000) }
        ))
    }
}

/// A minimal decodable for client tests.
struct Item: Decodable, Sendable, Equatable {
    let id: Int
    let title: String
}

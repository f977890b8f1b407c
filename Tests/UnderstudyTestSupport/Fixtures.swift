import Foundation
import UnderstudyClient
import UnderstudyTesting

/// Builders the client-side suites share (UnderstudyClientTests, UnderstudyDummyJSONTests, UnderstudyTestingTests).
package enum Fixtures {
    /// A client over a stub host that never really sleeps and always draws the same jitter.
    package static func client(
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
package struct Item: Decodable, Sendable, Equatable {
    package let id: Int
    package let title: String

    /// An item as a test expects to decode it.
    package init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

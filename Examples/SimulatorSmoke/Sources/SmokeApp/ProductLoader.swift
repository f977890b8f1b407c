import Foundation
import UnderstudyControl

/// The app's networking, as small as can show the point: it reaches Understudy at `http://localhost:8080` (App
/// Transport Security allows plain http to `localhost`, not to 127.0.0.1) and joins a test's session.
public struct ProductLoader: Sendable {
    /// The server, `http://localhost:8080` in the app.
    public let baseURL: URL
    /// The test's session, read from the launch arguments in a real app.
    public let session: String?

    /// A loader for a server and, in a test, its session.
    public init(baseURL: URL = URL(string: "http://localhost:8080")!, session: String? = nil) {
        self.baseURL = baseURL
        self.session = session
    }

    /// The status and body of GET /products/{id}.
    public func product(id: Int) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: baseURL.appending(path: "products/\(id)"))
        request.understudySession = session
        let (body, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }
}

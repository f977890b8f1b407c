import Foundation
import UnderstudyClient

extension TokenStore {
    /// A refresher that posts the refresh token to DummyJSON's `POST /auth/refresh`.
    ///
    /// - Parameter expiresInMins: The lifetime of the new access token; the server's default (60) when nil.
    /// - Returns: A refresher for ``init(storage:refresher:)``.
    public static func dummyJSONRefresher(expiresInMins: Int? = nil) -> Refresher {
        { tokens, client in
            guard let refreshToken = tokens.refreshToken else {
                throw APIError(.unauthorized, underlying: "no refresh token")
            }
            return try await client.send(AuthEndpoints.refresh(refreshToken: refreshToken,
                                                               expiresInMins: expiresInMins))
        }
    }
}

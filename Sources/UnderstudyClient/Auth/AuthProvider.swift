/// What ``APIClient`` asks for the bearer token, and for a better one after a 401.
///
/// ``TokenStore`` is the implementation; conform your own type for other schemes.
public protocol AuthProvider: Sendable {
    /// The credential to attach to a request now, nil when signed out.
    func currentCredential() async -> Credential?

    /// A credential to retry with after the server answered 401.
    ///
    /// Called at most once per request. Implementations must not start a second refresh while one is in flight,
    /// and must return the current credential without refreshing when `rejected` is older than it.
    ///
    /// - Parameters:
    ///   - rejected: The credential the 401'd request carried, nil if it carried none.
    ///   - client: The client, for sending the refresh request.
    /// - Returns: The credential to retry with.
    /// - Throws: ``APIError/Kind/unauthorized`` when there is no way to a valid token.
    func refreshedCredential(after rejected: Credential?, using client: APIClient) async throws(APIError) -> Credential
}

/// Work some requests need done before they are planned: an index of a large collection built the first time a
/// search or sort asks for it, which the transport has built off its loop while the request waits.
extension Pipeline {
    /// The indexes `request` needs before it is planned (a search or sort of a collection), which may not be built
    /// yet; nil when it needs none. Admin requests, and requests a recording or an upstream answers, need none.
    func groundwork(for request: HTTPRequest) -> Router.Groundwork? {
        guard !request.isAdmin, servesBuiltInRoutes else { return nil }
        return router.groundwork(for: request)
    }
}

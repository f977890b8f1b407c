/// Work some requests need done before they are planned: an index of a large collection built the first time a
/// search or sort asks for it, which the transport has built off its loop while the request waits.
extension Pipeline {
    /// Starts building, off the loop, the indexes `request` needs and has not got yet (a first search or sort of a
    /// collection), and calls `ready` (on the builder's thread) once they are there; false when it can be planned
    /// now. Admin requests, and requests that a recording or an upstream answers, need none.
    func prepare(_ request: HTTPRequest, then ready: @escaping @Sendable () -> Void) -> Bool {
        guard !request.isAdmin, servesBuiltInRoutes else { return false }
        return router.prepare(request, then: ready)
    }
}

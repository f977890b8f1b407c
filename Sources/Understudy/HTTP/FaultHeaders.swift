/// The request and reply headers that carry faults and sessions.
enum FaultHeaders {
    /// Written once as C string literals, which the transport compares with evhttp's header names.
    static let faultName: StaticString = "X-Understudy-Fault"
    static let sessionName: StaticString = "X-Understudy-Session"
    /// A fault spec for this one request.
    static let fault = faultName.description
    /// The session a request belongs to.
    static let session = sessionName.description
    /// On a reply: the directives of its fault that took effect.
    static let applied = "X-Understudy-Fault-Applied"
}

/// A client-visible failure: a status and the DummyJSON-style `{"message": …}` body.
struct APIError: Error, Sendable, Equatable {
    let status: Int
    let message: String
    /// Extra headers for the error reply (e.g. cookies cleared on a failed token check).
    var headers: HTTPHeaders = [:]

    init(_ status: Int, _ message: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    static func == (lhs: APIError, rhs: APIError) -> Bool {
        lhs.status == rhs.status && lhs.message == rhs.message
    }

    /// The reply DummyJSON would send for this error.
    var response: HTTPResponse {
        var response = HTTPResponse.message(message, status: status)
        for field in headers { response.headers.add(field.name, field.value) }
        return response
    }
}

extension CannedReply {
    /// `response` canned, when its head is one the canned path writes byte for byte as the pipeline would:
    /// `Content-Type` first (evhttp adds its own default when no field is called that), a 2xx with a body; nil for
    /// any other. A 200 keeps its ETag. `rateLimitWindow`: whether the head carries DummyJSON's live counters
    /// (counters the response brings of its own are kept as they are).
    static func canning(_ response: HTTPResponse, rateLimitWindow: Bool = true) -> CannedReply? {
        guard (200..<300).contains(response.status), response.status != 204, response.body.count > 0,
              response.headers.fields.first?.name.lowercased() == "content-type" else { return nil }
        let body: SharedBytes
        switch response.body {
        case .shared(let shared): body = shared
        case .bytes(let bytes): body = SharedBytes(bytes)
        case .empty: return nil
        }
        let reply = CannedReply(status: response.status, headers: response.headers.fields, body: body,
                                etag: response.status == 200 ? response.etag : nil, fault: nil, rateLimitWindow: rateLimitWindow)
        return reply.fitsCannedHead ? reply : nil
    }
}

/// The request as it goes to the upstream: the client's method, target, headers and body, with Understudy's own
/// parts taken out (its headers, the `_fault` parameter), the hop-by-hop headers dropped, `Host` rewritten and
/// `X-Forwarded-*` added.
struct UpstreamRequest: Equatable {
    let method: String
    /// The path and query as sent upstream, under the upstream's base path.
    let target: String
    let headers: HTTPHeaders
    let body: [UInt8]

    init(forwarding request: HTTPRequest, to upstream: Upstream, clientAddress: String?) {
        method = request.method
        var target = upstream.basePath + String(request.path)
        if let query = request.rawQuery {
            let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { pair in
                let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                return QueryParameters.decode(name) != "_fault"
            }
            if !kept.isEmpty { target += "?" + kept.joined(separator: "&") }
        }
        self.target = target.isEmpty ? "/" : target
        let incoming = request.headers.decoded
        let hopByHop = incoming.hopByHopNames()
        var headers = HTTPHeaders()
        headers.add("Host", upstream.hostHeader)
        var forwardedFor: String?
        for field in incoming {
            let name = field.name.lowercased()
            if name == "x-forwarded-for" {
                forwardedFor = forwardedFor.map { "\($0), \(field.value)" } ?? field.value
                continue
            }
            // `Expect: 100-continue` was answered here already, and the body goes whole.
            guard !hopByHop.contains(name), name != "host",
                  name != "content-length", name != "expect", !name.hasPrefix("x-understudy-"),
                  !name.hasPrefix("x-forwarded-")
            else { continue }
            headers.add(field.name, field.value)
        }
        if let clientAddress {
            headers.add("X-Forwarded-For", forwardedFor.map { "\($0), \(clientAddress)" } ?? clientAddress)
        } else if let forwardedFor {
            headers.add("X-Forwarded-For", forwardedFor)
        }
        if let host = incoming["Host"] { headers.add("X-Forwarded-Host", host) }
        headers.add("X-Forwarded-Proto", request.isSecure ? "https" : "http")
        // libevent's client frames only a POST's or a PUT's body by itself: a DELETE's or a PATCH's went unframed,
        // and the upstream read it as the next request on the pooled connection (a 501 or 400 for someone else).
        if !request.body.isEmpty { headers.add("Content-Length", String(request.body.count)) }
        self.headers = headers
        body = request.body
    }
}

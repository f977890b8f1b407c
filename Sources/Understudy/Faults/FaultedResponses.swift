import UnderstudyJSON

/// The replies faults put in place of the routed one, in DummyJSON's words.
enum FaultedResponses {
    /// The `{"message"}` reply for `status=CODE`.
    static func status(_ code: Int, spec: FaultSpec, nowSeconds: Double) -> HTTPResponse {
        if code == 204 { return HTTPResponse(status: 204) }
        var response = HTTPResponse.message(spec.message ?? defaultMessage(for: code), status: code)
        if let retryAfter = spec.retryAfter { response.headers.add("Retry-After", retryAfter) }
        if code == 429 {
            // The reset is when the client may try again: the Retry-After date itself, or that many seconds on.
            let wait = spec.retryAfter.flatMap(Int.init) ?? Int(RateLimitWindow.windowSeconds)
            let reset = spec.retryAfterDate.map { Int($0) } ?? Int(nowSeconds.rounded(.up)) + wait
            response.headers.add("X-RateLimit-Limit", String(spec.rateLimit?.requests ?? RateLimitWindow.limit))
            response.headers.add("X-RateLimit-Remaining", "0")
            response.headers.add("X-RateLimit-Reset", String(reset))
        }
        return response
    }

    /// DummyJSON's messages where it has one for the status, else the reason phrase.
    static func defaultMessage(for code: Int) -> String {
        switch code {
        case 401: "Token Expired!"
        case 403: "Forbidden"
        case 404: "Not found"
        case 429: "request limit exceeded, please wait a few seconds"
        default: ReasonPhrase.forStatus(code)
        }
    }

    /// The 429 of an exhausted `rate-limit` bucket.
    static func rateLimited(limit: FaultSpec.RateLimit, retryAfterSeconds: Int, nowSeconds: Double, spec: FaultSpec) -> HTTPResponse {
        var response = HTTPResponse.message(spec.message ?? defaultMessage(for: 429), status: 429)
        response.headers.add("Retry-After", String(retryAfterSeconds))
        response.headers.add("X-RateLimit-Limit", String(limit.requests))
        response.headers.add("X-RateLimit-Remaining", "0")
        response.headers.add("X-RateLimit-Reset", String(Int(nowSeconds.rounded(.up)) + retryAfterSeconds))
        return response
    }

    /// A 200 whose body is not JSON: the real body cut short and followed by bytes no JSON parser accepts.
    static func brokenSyntax(_ body: [UInt8]) -> [UInt8] {
        Array(body.prefix(max(1, body.count * 3 / 5))) + Array("<!-- understudy: malformed -->".utf8)
    }

    /// Valid JSON of the wrong shape: `price` becomes a string everywhere it appears; with no price, the first key
    /// of each object goes missing; a top-level array is wrapped in an object.
    static func wrongShape(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .object(JSONObject([.init(key: "items", value: .array(items.map(reshapeElement)))]))
        case .object(var object):
            if case .array(let products)? = object["products"] {
                object["products"] = .array(products.map(reshapeElement))
                return .object(object)
            }
            return reshapeElement(.object(object))
        default:
            return .object(JSONObject([.init(key: "value", value: value)]))
        }
    }

    private static func reshapeElement(_ value: JSONValue) -> JSONValue {
        guard case .object(var object) = value else { return value }
        if let price = object["price"] {
            object["price"] = .string(String(decoding: price.jsonBytes, as: UTF8.self))
        } else if !object.entries.isEmpty {
            object.entries.removeFirst()
        }
        return .object(object)
    }
}

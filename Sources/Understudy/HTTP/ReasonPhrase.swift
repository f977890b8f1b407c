/// Reason phrases for every status DummyJSON's `/http/{code}` supports (and the ones Understudy sends itself).
enum ReasonPhrase {
    static func forStatus(_ status: Int) -> String {
        staticPhrase(status).description
    }

    /// The phrase as a C string for evhttp, from a literal: a `String` argument would be copied to the heap on
    /// every reply.
    static func cString(forStatus status: Int) -> UnsafePointer<CChar> {
        UnsafeRawPointer(staticPhrase(status).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    private static func staticPhrase(_ status: Int) -> StaticString {
        phrases[status] ?? (status >= 500 ? "Server Error" : status >= 400 ? "Client Error" : "Unknown")
    }

    /// Whether `/http/{code}` serves this status (DummyJSON's list).
    static func isSupportedByHTTPRoute(_ status: Int) -> Bool {
        phrases[status] != nil && status >= 200
    }

    private static let phrases: [Int: StaticString] = [
        101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
        413: "Payload Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 418: "I'm a Teapot", 420: "Enhance Your Calm", 422: "Unprocessable Entity",
        423: "Locked", 424: "Failed Dependency", 426: "Upgrade Required", 428: "Precondition Required",
        429: "Too Many Requests", 431: "Request Header Fields Too Large", 444: "No Response", 449: "Retry With",
        450: "Blocked by Windows Parental Controls", 451: "Unavailable For Legal Reasons",
        499: "Client Closed Request",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
        507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended",
        511: "Network Authentication Required", 598: "Network Read Timeout Error",
        599: "Network Connect Timeout Error",
    ]
}

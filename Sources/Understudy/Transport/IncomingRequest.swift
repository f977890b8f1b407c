import CLibevent
import Foundation

/// A request as the transport read it from evhttp, once: what the pipeline decides on and what the journal keeps.
///
/// The fields the fast path needs (the fault and session headers, whether `Origin` or `If-None-Match` came, whether
/// it is for the admin API) are found while the request is read, so a cached reply is chosen without decoding
/// anything else. Immutable, and a class so that the plan, the writer and the journal share one copy.
final class IncomingRequest: Sendable {
    /// The method in upper case, e.g. `GET`.
    let method: String
    /// The request target as sent, e.g. `/products?limit=5`.
    let target: String
    let headers: RawHeaders
    let body: [UInt8]
    /// The first `X-Understudy-Fault` value, if any.
    let faultHeader: String?
    /// The first `X-Understudy-Session` value, if any (empty when sent empty).
    let sessionHeader: String?
    /// Whether an `Origin` or an `If-None-Match` came: either changes the reply's headers or status.
    let hasOriginOrCondition: Bool
    /// Whether the target is under `/__understudy` (the admin API and the control room).
    let isAdmin: Bool
    /// The path part of the target, still percent-encoded.
    let path: Substring
    /// The raw query (after `?`), empty when there is none.
    let rawQuery: Substring
    /// Monotonic milliseconds when its first byte arrived (or the loop took it).
    let startedAt: Double
    /// Wall-clock seconds when it arrived.
    let arrivedAt: Double

    /// A request from its parts; `queryMark`, when known, is the UTF-8 offset of the target's `?` (-1: none).
    init(method: String, target: String, headers: RawHeaders, body: [UInt8] = [], faultHeader: String? = nil,
         sessionHeader: String? = nil, hasOriginOrCondition: Bool = false, startedAt: Double, arrivedAt: Double,
         queryMark: Int? = nil) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.faultHeader = faultHeader
        self.sessionHeader = sessionHeader
        self.hasOriginOrCondition = hasOriginOrCondition
        self.startedAt = startedAt
        self.arrivedAt = arrivedAt
        isAdmin = target.hasPrefix(AdminRoutes.prefix)
        let mark = queryMark.map { $0 < 0 ? nil : target.utf8.index(target.utf8.startIndex, offsetBy: $0) }
            ?? target.utf8.firstIndex(of: UInt8(ascii: "?"))
        if let mark {
            path = Substring(target.utf8[..<mark])
            rawQuery = Substring(target.utf8[target.utf8.index(after: mark)...])
        } else {
            path = target[...]
            rawQuery = ""
        }
    }

    /// Reads evhttp's request: one pass over its headers, one copy of its body.
    convenience init(_ request: OpaquePointer, startedAt: Double, arrivedAt: Double) {
        let uri = evhttp_request_get_uri(request)
        let target = uri.map { String(cString: $0) } ?? "/"
        // Found in the C string: a generic scan of the String's UTF-8 view costs more than the rest of the read.
        let queryMark = uri.flatMap { uri in strchr(uri, Int32(UInt8(ascii: "?"))).map { UnsafePointer($0) - uri } } ?? -1
        var faultHeader: String?
        var sessionHeader: String?
        var hasOriginOrCondition = false
        var headers = RawHeaders()
        if let input = evhttp_request_get_input_headers(request) {
            var field = input.pointee.tqh_first
            while let current = field {
                if let key = current.pointee.key, let value = current.pointee.value {
                    if key.caseInsensitiveEquals("Origin") || key.caseInsensitiveEquals("If-None-Match") {
                        hasOriginOrCondition = true
                    } else if faultHeader == nil, key.caseInsensitiveEquals(FaultHeaders.faultName) {
                        faultHeader = String(cString: value)
                    } else if sessionHeader == nil, key.caseInsensitiveEquals(FaultHeaders.sessionName) {
                        sessionHeader = String(cString: value)
                    }
                }
                field = current.pointee.next.tqe_next
            }
            headers = RawHeaders(input)
        }
        var body: [UInt8] = []
        if let buffer = evhttp_request_get_input_buffer(request) {
            let length = evbuffer_get_length(buffer)
            if length > 0 {
                body = [UInt8](repeating: 0, count: length)
                _ = body.withUnsafeMutableBytes { evbuffer_copyout(buffer, $0.baseAddress, length) }
            }
        }
        self.init(method: IncomingRequest.methodName(evhttp_request_get_command(request)), target: target,
                  headers: headers, body: body, faultHeader: faultHeader, sessionHeader: sessionHeader,
                  hasOriginOrCondition: hasOriginOrCondition, startedAt: startedAt, arrivedAt: arrivedAt,
                  queryMark: queryMark)
    }

    /// The session the request names: its first session header, none when that is empty.
    var session: String? {
        sessionHeader.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the request came with a body evhttp does not read (it reads none with HEAD or TRACE): its bytes
    /// would be parsed as the next request on the connection (request smuggling), so they are dropped and the
    /// connection closes after the reply.
    var leavesBodyUnread: Bool {
        guard method == "HEAD" || method == "TRACE" else { return false }
        let declared = headers["Content-Length"].flatMap { Int($0) } ?? 0
        return declared != 0 || headers["Transfer-Encoding"] != nil
    }

    /// The request as routes read it, its headers decoded.
    var decoded: HTTPRequest {
        HTTPRequest(method: method, target: target, headers: headers.decoded, body: body)
    }

    static func methodName(_ command: evhttp_cmd_type) -> String {
        switch command {
        case EVHTTP_REQ_GET: "GET"
        case EVHTTP_REQ_POST: "POST"
        case EVHTTP_REQ_HEAD: "HEAD"
        case EVHTTP_REQ_PUT: "PUT"
        case EVHTTP_REQ_DELETE: "DELETE"
        case EVHTTP_REQ_OPTIONS: "OPTIONS"
        case EVHTTP_REQ_TRACE: "TRACE"
        case EVHTTP_REQ_CONNECT: "CONNECT"
        case EVHTTP_REQ_PATCH: "PATCH"
        default: "UNKNOWN"
        }
    }
}

extension UnsafeMutablePointer<CChar> {
    /// ASCII case-insensitive equality with a C string literal, as HTTP field names compare; a `String` argument
    /// to `strcasecmp` would be copied to the heap on every call.
    func caseInsensitiveEquals(_ name: StaticString) -> Bool {
        name.withUTF8Buffer { literal in
            literal.withMemoryRebound(to: CChar.self) { strncasecmp(self, $0.baseAddress!, $0.count) == 0 && self[$0.count] == 0 }
        }
    }
}

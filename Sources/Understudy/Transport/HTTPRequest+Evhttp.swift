import CLibevent
import Foundation

extension HTTPRequest {
    /// Reads evhttp's request: one pass over its headers, one copy of its body; the query is decoded only if the
    /// pipeline needs it (`decodingQuery()`).
    init(_ request: OpaquePointer, startedAt: Double, arrivedAt: Double, isSecure: Bool) {
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
        self.init(method: HTTPRequest.methodName(evhttp_request_get_command(request)), target: target,
                  headers: headers, body: body, faultHeader: faultHeader, sessionHeader: sessionHeader,
                  hasOriginOrCondition: hasOriginOrCondition, startedAt: startedAt, arrivedAt: arrivedAt,
                  queryMark: queryMark, isSecure: isSecure, decodesQuery: false)
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
            // Most names differ in their first byte, which decides without a call (ASCII case is bit 0x20).
            guard let first = literal.first, UInt8(bitPattern: self[0]) | 0x20 == first | 0x20 else {
                return literal.isEmpty && self[0] == 0
            }
            return literal.withMemoryRebound(to: CChar.self) {
                strncasecmp(self, $0.baseAddress!, $0.count) == 0 && self[$0.count] == 0
            }
        }
    }
}

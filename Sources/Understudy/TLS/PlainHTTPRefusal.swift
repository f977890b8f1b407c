#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import COpenSSL
import Foundation

/// The answer to plain http sent to the https port (`curl http://` to `--tls`), as nginx gives one: a 400 whose
/// `{"message": …}` says the port speaks HTTPS and names the https URL, where the connection would otherwise just
/// close with nothing to read.
///
/// OpenSSL recognises the request from its first five bytes (`GET /`, `POST `, `HEAD `, `PUT /`) and fails the
/// handshake with `SSL_R_HTTP_REQUEST`, sending no alert. The reply goes straight to the socket, which a fresh
/// connection's send buffer takes whole; what is left of the request is read first and the sending side shut,
/// so the close that follows is no reset that would discard the reply.
enum PlainHTTPRefusal {
    /// Answers on `ssl`'s socket when its handshake just failed on a plain http request; otherwise does nothing.
    static func answerIfPlainHTTP(_ ssl: OpaquePointer) {
        // A handshake that waits for bytes exits too (ret -1), with nothing queued: libevent empties OpenSSL's error
        // queue after each failure, and the first record, the only one OpenSSL looks at for http, is still to be
        // read while the handshake is in its "before" state.
        guard SSL_get_state(ssl) == TLS_ST_BEFORE, ERR_GET_REASON(ERR_peek_last_error()) == SSL_R_HTTP_REQUEST else { return }
        let socket = SSL_get_fd(ssl)
        guard socket >= 0 else { return }
        var rest = [UInt8](repeating: 0, count: 8_192)
        let count = rest.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        let reply = self.reply(restOfRequest: count > 0 ? Array(rest[..<count]) : [], localPort: port(of: socket))
        _ = reply.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        shutdown(socket, Int32(SHUT_WR))
    }

    /// The reply, given what followed the five bytes OpenSSL read: the target's rest and the `Host` header name
    /// the URL to ask instead.
    static func reply(restOfRequest: [UInt8], localPort: Int) -> [UInt8] {
        let text = String(decoding: restOfRequest, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        // Five bytes in: `GET /products` left `products HTTP/1.1`, `POST /x` left `/x HTTP/1.1`.
        let requestLine = lines.first.map(String.init) ?? ""
        var target = requestLine.range(of: " HTTP/").map { String(requestLine[..<$0.lowerBound]) } ?? ""
        target = target.trimmingCharacters(in: .whitespaces)
        if !target.hasPrefix("/") { target = "/" + target }
        if !target.allSatisfy({ $0.isASCII && !$0.isWhitespace }) { target = "/" }
        let host = lines.dropFirst().lazy.compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "host" else { return nil }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return value.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" }) && !value.isEmpty ? value : nil
        }.first ?? "localhost:\(localPort)"
        let response = HTTPResponse.message("This port speaks HTTPS, and the request came as plain http: ask "
                                            + "https://\(host)\(target) instead", status: 400)
        let body = response.body.bytesCopy
        let head = "HTTP/1.1 400 Bad Request\r\nContent-Type: \(HTTPResponse.jsonContentType)\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    private static func port(of socket: Int32) -> Int {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) == 0 }
        }
        guard found else { return 0 }
        return withUnsafeBytes(of: &address) { raw in
            // sin_port and sin6_port sit at the same offset, after the family.
            Int(UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self)))
        }
    }
}

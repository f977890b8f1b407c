import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SocketWebSocketChannel {
    /// RFC 6455 §1.3's GUID, appended to the key before hashing.
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Connects and runs the opening handshake (blocking; called on a thread of its own).
    static func open(_ request: URLRequest) -> Result<SocketWebSocketChannel, APIError> {
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "http",
              let host = url.host, !host.isEmpty else {
            var error = APIError(.invalidURL, underlying: "the socket transport opens ws:// URLs only (no TLS); use .urlSession for wss://")
            error.url = request.url
            return .failure(error)
        }
        let port = url.port ?? 80
        let timeout = request.timeoutInterval > 0 ? min(request.timeoutInterval, 3_600) : 60
        let descriptor: Int32
        switch connectSocket(host: host, port: port, timeoutSeconds: timeout) {
        case .success(let opened): descriptor = opened
        case .failure(let error): return .failure(error)
        }
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let target = (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?" + $0 } ?? "")
        var head = "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in request.allHTTPHeaderFields ?? [:] where !value.contains("\r") && !value.contains("\n") {
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        guard writeAll(descriptor, Array(head.utf8)) else {
            _ = Posix.close(descriptor)
            return .failure(APIError(.connectionLost, underlying: "the connection closed before the handshake was sent"))
        }
        switch readHandshake(descriptor, url: url, key: key) {
        case .success(let leftover):
            // From here the reader waits as long as the connection lives; the heartbeat notices a dead one.
            var forever = timeval()
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &forever, socklen_t(MemoryLayout<timeval>.size))
            return .success(SocketWebSocketChannel(descriptor: descriptor, leftover: leftover))
        case .failure(let error):
            _ = Posix.close(descriptor)
            return .failure(error)
        }
    }

    /// A connected TCP socket to the first of `host`'s addresses that answers, with send and receive timeouts.
    private static func connectSocket(host: String, port: Int, timeoutSeconds: Double) -> Result<Int32, APIError> {
        var hints = addrinfo()
        hints.ai_socktype = Posix.stream
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            return .failure(APIError(.noConnection, underlying: "cannot resolve \(host)"))
        }
        defer { freeaddrinfo(first) }
        var reason = "no address of \(host) answered"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            var limit = timeval(tv_sec: Int(timeoutSeconds), tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if Posix.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return .success(descriptor) }
            reason = "cannot connect to \(host):\(port): \(String(cString: strerror(errno)))"
            _ = Posix.close(descriptor)
        }
        return .failure(APIError(.noConnection, underlying: reason))
    }

    /// Reads the server's answer: a 101 whose accept value is the key's, or the refusal as an HTTP error. Returns
    /// the bytes read past the head (frames the server sent at once).
    private static func readHandshake(_ descriptor: Int32, url: URL, key: String) -> Result<[UInt8], APIError> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        var headEnd: Int?
        while headEnd == nil {
            guard bytes.count < 16 << 10 else { return .failure(APIError(.invalidResponse, underlying: "the handshake's head is over 16 KiB")) }
            let count = chunk.withUnsafeMutableBytes { Posix.recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                let timedOut = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
                return .failure(APIError(timedOut ? .timedOut : .connectionLost,
                                         underlying: timedOut ? "no handshake answer in time" : "the connection closed during the handshake"))
            }
            bytes += chunk[..<count]
            headEnd = bytes.firstRange(of: [13, 10, 13, 10])?.lowerBound
        }
        let end = headEnd ?? 0
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var rest = Array(bytes[(end + 4)...])
        guard status == 101 else {
            let length = headers.first { $0.key.caseInsensitiveCompare("Content-Length") == .orderedSame }.flatMap { Int($0.value) } ?? 0
            while rest.count < min(length, 64 << 10) {
                let count = chunk.withUnsafeMutableBytes { Posix.recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                rest += chunk[..<count]
            }
            guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers),
                  let refusal = APIError.classify(response, body: Data(rest)) else {
                return .failure(APIError(.invalidResponse, underlying: "the upgrade was answered \(status), not 101"))
            }
            return .failure(refusal)
        }
        let expected = Data(SHA1.digest(Array((key + acceptGUID).utf8))).base64EncodedString()
        let accept = headers.first { $0.key.caseInsensitiveCompare("Sec-WebSocket-Accept") == .orderedSame }?.value
        guard accept == expected else {
            return .failure(APIError(.invalidResponse, underlying: "the 101's Sec-WebSocket-Accept is not the key's"))
        }
        return .success(rest)
    }
}

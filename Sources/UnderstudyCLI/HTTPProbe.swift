#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import COpenSSL
import Foundation
import Understudy

/// One GET over a plain socket, or TLS over one (an https URL), for `understudy wait`: the status, or why there is
/// none.
///
/// Not URLSession: the release binary links Foundation statically on Linux, and FoundationNetworking would need a
/// static libcurl. Every address the host resolves to is tried (`localhost` is ::1 and 127.0.0.1).
enum HTTPProbe {
    /// The reply's status, or a short reason (`connection refused`, `timed out`).
    static func status(host: String, port: Int, target: String, tls: UpstreamTLS? = nil,
                       timeoutMilliseconds: Int32) -> Result<Int, ProbeFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_NUMERICSERV
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var resolved: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &resolved)
        guard code == 0 else { return .failure(ProbeFailure(String(cString: gai_strerror(code)))) }
        defer { freeaddrinfo(resolved) }
        var failure = ProbeFailure("no address")
        var next = resolved
        while let address = next {
            switch ask(address.pointee, host: host, port: port, target: target, tls: tls,
                       timeoutMilliseconds: timeoutMilliseconds) {
            case .success(let status): return .success(status)
            case .failure(let reason): failure = reason
            }
            next = address.pointee.ai_next
        }
        return .failure(failure)
    }

    private static func ask(_ address: addrinfo, host: String, port: Int, target: String, tls: UpstreamTLS?,
                            timeoutMilliseconds: Int32) -> Result<Int, ProbeFailure> {
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { return .failure(.errno()) }
        defer { close(descriptor) }
        // Non-blocking connect, waited for with poll: an address that drops packets costs the timeout, not TCP's.
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        if connect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { return .failure(.errno()) }
            guard wait(descriptor, for: Int16(POLLOUT), milliseconds: timeoutMilliseconds) else { return .failure(ProbeFailure("timed out")) }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { return .failure(ProbeFailure(String(cString: strerror(error)))) }
        }
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let request = Array("GET \(target) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n\r\n".utf8)
        let channel: ProbeChannel
        if let tls {
            switch ProbeChannel.secure(descriptor, host: host, tls: tls, timeoutMilliseconds: timeoutMilliseconds) {
            case .success(let secure): channel = secure
            case .failure(let failure): return .failure(failure)
            }
        } else {
            channel = .plain(descriptor, timeoutMilliseconds: timeoutMilliseconds)
        }
        defer { channel.close() }
        guard channel.send(request) else { return .failure(channel.failure()) }
        var head: [UInt8] = []
        while !head.contains(UInt8(ascii: "\n")) {
            switch channel.receive() {
            case .success(let bytes): head += bytes
            case .failure(let failure): return .failure(failure)
            }
        }
        let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            return .failure(ProbeFailure("not an HTTP reply: '\(line.prefix(60))'"))
        }
        return .success(status)
    }

    static func wait(_ descriptor: Int32, for events: Int16, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }
}

/// Why a probe got no status.
struct ProbeFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    static func errno() -> ProbeFailure { ProbeFailure(String(cString: strerror(Foundation.errno))) }
}

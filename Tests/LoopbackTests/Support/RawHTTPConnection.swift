import Foundation
import Testing
import UnderstudyTestSupport

/// A plain TCP connection for checking what is really on the wire (URLSession follows redirects, hides HEAD
/// bodies and reuses connections as it likes).
final class RawHTTPConnection {
    private let socket: Int32

    /// The descriptor is kept in a local until the connection stands: once `self.socket` is set, a throwing init
    /// still runs `deinit`, and closing here as well closed the number twice — by then, often, another test's
    /// socket, which that test saw as a reset or a broken pipe.
    init(port: Int, host: String = "127.0.0.1", receiveTimeoutSeconds: Int = 5, receiveBufferBytes: Int? = nil) throws {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        #if canImport(Glibc)
        // Close-on-exec: a child process spawned by a parallel test must not inherit it and hold it open.
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let socket = Darwin.socket(family, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw RawHTTPConnection.error(errno) }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferBytes.map(Int32.init) {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let connected = family == AF_INET6 ? RawHTTPConnection.connect(socket, toIPv6: host, port: port)
                                           : RawHTTPConnection.connect(socket, toIPv4: host, port: port)
        guard connected == 0 else {
            let code = errno
            close(socket)
            throw RawHTTPConnection.error(code)
        }
        self.socket = socket
    }

    private static func connect(_ socket: Int32, toIPv4 host: String, port: Int) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    private static func connect(_ socket: Int32, toIPv6 host: String, port: Int) -> Int32 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = UInt16(port).bigEndian
        guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { errno = EINVAL; return -1 }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
    }

    /// The errno as a `POSIXError`, so a test can tell ECONNREFUSED from any other failure. An errno Foundation has
    /// no case for becomes EIO, never a guess at what the test looks for.
    private static func error(_ code: Int32) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }

    deinit {
        close(socket)
    }

    /// How long a read waits from now on.
    func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func write(_ text: String) {
        write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Reads one HTTP/1.1 response (head plus Content-Length body); nil when the peer closed first. `arrived`
    /// hears the size of each read as it lands, for timing what a paced reply sends.
    func readResponse(arrived: (Int) -> Void = { _ in }) -> RawResponse? {
        var buffer: [UInt8] = []
        func readChunk() -> [UInt8]? {
            let chunk = self.readChunk()
            if let chunk { arrived(chunk.count) }
            return chunk
        }
        while true {
            if let headEnd = RawResponse.headEnd(in: buffer) {
                let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
                let length = RawResponse.contentLength(head) ?? 0
                let hasBody = !head.hasPrefix("HTTP/1.1 304") && !head.hasPrefix("HTTP/1.1 204")
                let needed = headEnd + 4 + (hasBody ? length : 0)
                while buffer.count < needed, let chunk = readChunk() { buffer += chunk }
                return RawResponse(head: head, body: Array(buffer[(headEnd + 4)..<min(needed, buffer.count)]))
            }
            guard let chunk = readChunk() else { return nil }
            buffer += chunk
        }
    }

    /// A response to HEAD: the head only, since the Content-Length describes a body that is not sent.
    func readHead() -> String? {
        var buffer: [UInt8] = []
        while RawResponse.headEnd(in: buffer) == nil {
            guard let chunk = readChunk() else { return nil }
            buffer += chunk
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Everything until the server closes the connection (or the receive timeout passes).
    func readToEnd() -> [UInt8] {
        var buffer: [UInt8] = []
        while let chunk = readChunk() { buffer += chunk }
        return buffer
    }

    /// How a read ended.
    enum Ending: Equatable {
        /// The server closed the connection (FIN).
        case closed
        /// The server reset the connection (RST).
        case reset
        /// Nothing more arrived before the receive timeout.
        case timedOut
        case failed(Int32)
    }

    /// Everything until the connection ends, and how it ended.
    func readUntilEnd() -> (bytes: [UInt8], ending: Ending) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        BlocksThreadsTrait.expectOffTheSharedPool("A raw connection's read")
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[..<count]
                continue
            }
            if count == 0 { return (buffer, .closed) }
            switch errno {
            case ECONNRESET: return (buffer, .reset)
            case EAGAIN, EWOULDBLOCK: return (buffer, .timedOut)
            default: return (buffer, .failed(errno))
            }
        }
    }

    /// What arrives next (up to 64 KiB); empty once the connection ends or the receive timeout passes.
    func readSome() -> [UInt8] {
        readChunk() ?? []
    }

    private func readChunk() -> [UInt8]? {
        BlocksThreadsTrait.expectOffTheSharedPool("A raw connection's read")
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Array(chunk[..<count])
    }
}

struct RawResponse {
    let head: String
    let body: [UInt8]

    var status: Int? {
        head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
    }

    func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    static func headEnd(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10
            && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    static func contentLength(_ head: String) -> Int? {
        RawResponse(head: head, body: []).header("Content-Length").flatMap { Int($0) }
    }
}

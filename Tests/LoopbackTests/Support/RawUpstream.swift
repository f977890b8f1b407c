import Foundation
import UnderstudyLocking

/// A bare TCP server on a free loopback port that answers one request with a body of `bodyBytes` bytes (byte `i` is
/// `i % 251`, or `unit` over and over), written 64 KiB at a time from a small send buffer, counting what the kernel
/// took: an upstream whose pace the test can watch.
final class RawUpstream: @unchecked Sendable {
    // @unchecked Sendable: the descriptor is set once in init; `sent` is behind a Locked.
    let port: Int
    private let listener: Int32
    private let sent = Locked(0)

    var bytesSent: Int { sent.withLock { $0 } }

    init(bodyBytes: Int, contentType: String = "application/octet-stream", repeating unit: [UInt8]? = nil) throws {
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard listener >= 0, bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve(bodyBytes: bodyBytes, contentType: contentType, unit: unit) }
        thread.start()
    }

    deinit {
        close(listener)
    }

    private func serve(bodyBytes: Int, contentType: String, unit: [UInt8]?) {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var small: Int32 = 64 << 10
        setsockopt(connection, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]), recv(connection, &byte, 1, 0) == 1 { head.append(byte) }
        let reply = Array("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(bodyBytes)\r\n\r\n".utf8)
        guard send(connection, reply, reply.count, 0) == reply.count else { return }
        var offset = 0
        let piece = 64 << 10
        // The pattern once, a period longer than a piece: the piece at `offset` starts at `offset % period` in it
        // (made byte by byte per piece, the 12 MiB took seconds in a debug build).
        let period = unit?.count ?? 251
        let pattern = (0..<(piece + period)).map { unit?[$0 % period] ?? UInt8($0 % 251) }
        while offset < bodyBytes {
            let count = min(piece, bodyBytes - offset)
            let written = pattern.withUnsafeBytes { send(connection, $0.baseAddress! + offset % period, count, 0) }
            guard written > 0 else { return }
            offset += written
            sent.withLock { $0 = offset }
        }
    }
}

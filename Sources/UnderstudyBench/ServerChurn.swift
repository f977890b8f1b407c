import Foundation
import Understudy

/// Starts and stops servers one after another, each serving a request and holding a kept-alive connection at
/// stop, and reports the process's descriptors by kind before and after: a quiet process of its own, so a
/// single leaked descriptor shows (the test suite runs it; in-process, parallel suites would blur the count).
struct ServerChurn {
    let count: Int

    func run() throws -> [String: Any] {
        try cycle()  // the first server builds the catalogue; anything opened once per process is opened here
        Self.openDispatchTimers()
        let before = Self.descriptorKinds()
        for _ in 0..<count { try cycle() }
        let after = Self.descriptorKinds()
        // What a running server holds, so the test can tell the count sees an event base at all (the built-in
        // catalogue no longer starts libdispatch's workers, whose epoll used to be open before and after).
        let server = try UnderstudyServer.start(UnderstudyServer.Configuration())
        let during = Self.descriptorKinds()
        server.stop()
        return ["count": count, "before": before, "after": after, "during": during]
    }

    private func cycle() throws {
        let server = try UnderstudyServer.start(UnderstudyServer.Configuration())
        guard try InProcessStart.status(port: server.port, target: "/products/1") == 200 else {
            throw BenchError(description: "a request failed")
        }
        let held = try Self.connect(port: server.port)
        let request = Array("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(held, $0.baseAddress, $0.count, 0) }
        var reply = [UInt8](repeating: 0, count: 4_096)
        _ = reply.withUnsafeMutableBytes { recv(held, $0.baseAddress, $0.count, 0) }
        server.stop()
        close(held)
    }

    /// libdispatch opens a timerfd per clock the first time it must wait for a timer on it (a deadline already past
    /// when its manager looks fires at once, with none), and keeps it for the process's life. How late a cycle's
    /// timers are looked at depends on the machine's load, so one full run saw an extra `anon_inode:[timerfd]`
    /// after; both clocks' are opened here, with deadlines far enough off to be waited for, before the count.
    private static func openDispatchTimers() {
        let fired = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { fired.signal() }
        DispatchQueue.global().asyncAfter(wallDeadline: .now() + .milliseconds(50)) { fired.signal() }
        fired.wait()
        fired.wait()
    }

    static func connect(port: Int) throws -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw BenchError(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw BenchError(description: "connect failed: errno \(errno)")
        }
        return descriptor
    }

    /// Open descriptors by what they are: `socket`, `pipe`, `anon_inode:[eventpoll]`, … (Linux; empty elsewhere).
    static func descriptorKinds() -> [String: Int] {
        var kinds: [String: Int] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for entry in entries {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)") else { continue }
            let kind = target.hasPrefix("socket:") ? "socket" : target.hasPrefix("pipe:") ? "pipe"
                : target.hasPrefix("anon_inode:") ? target : "file"
            kinds[kind, default: 0] += 1
        }
        return kinds
    }
}

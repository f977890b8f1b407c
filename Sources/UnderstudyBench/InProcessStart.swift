import Foundation
import Understudy

/// `UnderstudyServer.start` to the first 200 of `GET /products/1` read from a plain socket, then `stop()`.
///
/// The first start in a process also builds the built-in catalogue (once per process, shared by every later
/// server), so it is reported on its own; the rest are the figure a test suite starting many servers sees.
struct InProcessStart {
    let count: Int

    func run() throws -> [String: Any] {
        let first = try startAndServe()
        var starts: [Double] = []
        var stops: [Double] = []
        for _ in 0..<count {
            let timing = try startAndServe()
            starts.append(timing.start)
            stops.append(timing.stop)
        }
        return ["count": count, "first_start_ms": first.start, "start_ms_median": median(starts),
                "start_ms_max": starts.max() ?? 0, "stop_ms_median": median(stops)]
    }

    private func startAndServe() throws -> (start: Double, stop: Double) {
        let began = DispatchTime.now().uptimeNanoseconds
        let server = try UnderstudyServer.start(UnderstudyServer.Configuration())
        let status = try Self.status(port: server.port, target: "/products/1")
        let served = DispatchTime.now().uptimeNanoseconds
        guard status == 200 else { throw BenchError(description: "first reply was \(status)") }
        server.stop()
        let stopped = DispatchTime.now().uptimeNanoseconds
        return (Double(served - began) / 1e6, Double(stopped - served) / 1e6)
    }

    /// The status of one `Connection: close` request over a blocking loopback socket.
    static func status(port: Int, target: String) throws -> Int {
        let descriptor = try ServerChurn.connect(port: port)
        defer { close(descriptor) }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { break }
            reply += chunk[..<received]
        }
        // "HTTP/1.1 200 OK": the code is the second word of the status line.
        let statusLine = String(decoding: reply.prefix(while: { $0 != 13 }), as: UTF8.self)
        return statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }
}

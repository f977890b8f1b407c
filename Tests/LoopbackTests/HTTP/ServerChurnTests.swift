#if os(Linux)
import Foundation
import Testing
import Understudy

/// Starting and stopping servers frees everything: no listener stays open and no event base (its epoll and
/// notification descriptors) is left behind.
@Suite struct ServerChurnTests {
    /// How many descriptors of each anonymous kind (`[eventpoll]`, `[eventfd]`) the process holds now.
    static func anonymousDescriptors() -> [String: Int] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var counts: [String: Int] = [:]
        for entry in entries {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                  target.hasPrefix("anon_inode:") else { continue }
            counts[target, default: 0] += 1
        }
        return counts
    }

    /// Local ports in LISTEN state, from /proc/net/tcp and tcp6.
    static func listeningPorts() -> Set<Int> {
        var ports: Set<Int> = []
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[3] == "0A", let port = fields[1].split(separator: ":").last,
                      let value = Int(port, radix: 16) else { continue }
                ports.insert(value)
            }
        }
        return ports
    }

    @Test func twoHundredServersStartAndStopWithoutLeaking() throws {
        let before = ServerChurnTests.anonymousDescriptors()
        var ports: [Int] = []
        for _ in 0..<200 {
            let server = try UnderstudyServer.start()
            ports.append(server.port)
            server.stop()
        }
        let after = ServerChurnTests.anonymousDescriptors()
        // Each event base holds an epoll and a notification descriptor: a leak would add 200 of each. Other suites
        // running alongside open and close a few of their own, well under that.
        for kind in Set(before.keys).union(after.keys) {
            #expect((after[kind] ?? 0) - (before[kind] ?? 0) < 60, "\(kind): \(before[kind] ?? 0) → \(after[kind] ?? 0)")
        }
        let stillListening = ServerChurnTests.listeningPorts().intersection(ports)
        // A port may have been handed to another suite's server meanwhile; ours are stopped, so at most a few match.
        #expect(stillListening.count < 5, "still listening: \(stillListening.sorted())")
    }
}
#endif

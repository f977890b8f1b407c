import Foundation
import Testing
import UnderstudyTestSupport

/// The test support itself: a spawned child must not inherit the sockets parallel tests hold.
@Suite(.blocksThreads) struct ChildProcessTests {
    #if os(Linux)
    @Test func aChildInheritsOnlyTheStandardDescriptors() throws {
        // Plain open(2), without O_CLOEXEC, as a socket from socket(2) or libcurl would be.
        let held = (0..<3).map { _ in open("/dev/null", O_RDONLY) }
        defer { held.forEach { _ = close($0) } }
        #expect(held.allSatisfy { $0 > 2 })
        let child = try ChildProcess(executable: "/bin/ls", arguments: ["/proc/self/fd"])
        #expect(child.waitForExit() == 0)
        // ls itself opens one descriptor (3) to list the directory.
        let descriptors = child.output.split(separator: "\n").compactMap { Int($0) }
        #expect(descriptors.allSatisfy { $0 <= 3 }, "inherited: \(descriptors)")
    }
    #endif
}

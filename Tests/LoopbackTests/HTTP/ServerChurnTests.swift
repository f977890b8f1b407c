#if os(Linux)
import Foundation
import Testing
import UnderstudyTestSupport

/// Starting and stopping servers frees everything: no listener, connection, event base (its epoll and
/// notification descriptors) or pipe is left behind. Run in a process of its own (`UnderstudyBench churn`), so
/// the count is exact: in this one, parallel suites open and close descriptors of their own all the time.
@Suite(.blocksThreads) struct ServerChurnTests {
    static var churnExecutable: String {
        CommandLineTests.executable.deletingLastPathComponent().appendingPathComponent("UnderstudyBench").path
    }

    @Test func twoHundredServersStartAndStopWithoutLeakingADescriptor() throws {
        let child = try ChildProcess(executable: ServerChurnTests.churnExecutable, arguments: ["churn", "--count", "200"])
        #expect(child.waitForExit() == 0, "stderr: \(child.errors)")
        /// Open descriptors by kind, before the servers and after.
        struct ChurnReport: Decodable {
            let before: [String: Int]
            let after: [String: Int]
            let during: [String: Int]
        }
        let report = try JSONDecoder().decode(ChurnReport.self, from: Data(child.output.utf8))
        let (before, after) = (report.before, report.after)
        #expect(before == after, "descriptors before \(before), after \(after)")
        #expect((report.during["anon_inode:[eventpoll]"] ?? 0) > (before["anon_inode:[eventpoll]"] ?? 0),
                "the count saw no event base in a running server: \(report.during)")
    }
}
#endif

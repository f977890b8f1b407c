import Foundation
import Testing

/// A child process started with `posix_spawn`, its output going to temporary files.
///
/// Not Foundation's `Process`: on Linux its `run()` reads past a buffer (`findMaximumOpenFromProcSelfFD`) when
/// the parent has many descriptors open, which the stream and flood tests running alongside make sure of.
package final class ChildProcess {
    package let pid: pid_t
    private let outputPath: String
    private let errorPath: String
    private var exitStatus: Int32?

    package init(executable: String, arguments: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.path
        let name = UUID().uuidString
        outputPath = "\(directory)/understudy-child-\(name).out"
        errorPath = "\(directory)/understudy-child-\(name).err"

        var actions = ChildProcess.emptyFileActions
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = ChildProcess.emptyAttributes
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        ChildProcess.closeInheritedDescriptors(&actions, &attributes)

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv + [nil], ChildProcess.environment)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .ENOENT) }
        pid = child
    }

    // The spawn types differ: glibc's are structs, Darwin's are opaque pointers that `init` allocates.
    #if canImport(Darwin)
    private typealias FileActions = posix_spawn_file_actions_t?
    private typealias Attributes = posix_spawnattr_t?
    private static var emptyFileActions: FileActions { nil }
    private static var emptyAttributes: Attributes { nil }
    /// Darwin declares no `environ` for Swift; `_NSGetEnviron` is its way to the same table.
    private static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { _NSGetEnviron().pointee! }
    #else
    private typealias FileActions = posix_spawn_file_actions_t
    private typealias Attributes = posix_spawnattr_t
    private static var emptyFileActions: FileActions { posix_spawn_file_actions_t() }
    private static var emptyAttributes: Attributes { posix_spawnattr_t() }
    private static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { environ }
    #endif

    /// The child keeps only stdin, stdout and stderr. Otherwise it inherits every socket the parallel tests hold
    /// (URLSession's among them), and a connection a test closes stays open until the child exits, so the
    /// server never sees the client leave.
    private static func closeInheritedDescriptors(_ actions: inout FileActions, _ attributes: inout Attributes) {
        #if canImport(Darwin)
        // Darwin's own flag: every descriptor the file actions do not name is closed in the child.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #elseif canImport(Glibc)
        // glibc 2.34's posix_spawn_file_actions_addclosefrom_np is declared only under _GNU_SOURCE, which the
        // Glibc module does not define; it is looked up at run time instead (nil handle: RTLD_DEFAULT).
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        #endif
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
        unlink(outputPath)
        unlink(errorPath)
    }

    /// Waits for the child and returns its exit status (128 + the signal when a signal ended it).
    @discardableResult
    package func waitForExit() -> Int32 {
        BlocksThreadsTrait.expectOffTheSharedPool("Waiting for a child process's exit")
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        let result = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        exitStatus = result
        return result
    }

    /// Whether the child ended by itself (exit) rather than by a signal.
    package var exitedNormally: Bool { (exitStatus ?? 0) < 128 }

    /// What the child has printed on stdout so far.
    package var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// What the child has printed on stderr so far.
    package var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The first line the child printed on stdout, polled every 10 ms for up to `seconds` (synchronous, for
    /// initialisers that cannot await; `waitUntil` elsewhere).
    package func firstLine(within seconds: Double) -> String? {
        BlocksThreadsTrait.expectOffTheSharedPool("Polling a child process's first line")
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            // One read: the child may be writing the line between two reads of the file.
            let printed = output
            if let end = printed.firstIndex(of: "\n") { return String(printed[..<end]) }
            // Looked at once more after the deadline: a thread the machine left waiting past it still sees the line.
            guard Date() < deadline else { return nil }
            usleep(10_000)
        }
    }

    /// Sends `signal` to the child.
    package func send(_ signal: Int32) {
        kill(pid, signal)
    }
}

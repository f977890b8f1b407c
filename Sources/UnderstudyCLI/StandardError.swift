import Dispatch
import Foundation
import UnderstudyLocking

/// Writes to standard error without ever stopping the server.
///
/// Startup and shutdown messages are written at once (`say`); the per-request log goes through a background queue
/// with a bound, because a terminal that is paused or a pipe nobody reads would otherwise block the event loop on
/// `write(2)`. Lines beyond the bound are dropped and counted, and the count is reported when writing resumes.
/// Write errors (a reader that went away: EPIPE, with SIGPIPE ignored) are ignored rather than trapping, as
/// `FileHandle.write(_:)` does.
final class StandardError: Sendable {
    /// Lines waiting for the writer before new ones are dropped.
    static let maximumPendingLines = 10_000

    private struct Backlog {
        var pending = 0
        var dropped = 0
    }

    private let queue = DispatchQueue(label: "understudy.stderr")
    private let backlog = Locked(Backlog())

    /// Writes a line now, on the calling thread; gives up after `patience` if standard error will not take it
    /// (a paused terminal, a full pipe), so the caller always goes on.
    static func say(_ line: String, patience: Duration = .seconds(1)) {
        write(line + "\n", patience: patience)
    }

    /// Queues a line for the background writer; drops it when too many are waiting.
    func log(_ line: String) {
        let accepted = backlog.withLock { backlog -> Bool in
            guard backlog.pending < StandardError.maximumPendingLines else {
                backlog.dropped += 1
                return false
            }
            backlog.pending += 1
            return true
        }
        guard accepted else { return }
        queue.async { [self] in
            let dropped = backlog.withLock { backlog -> Int in
                backlog.pending -= 1
                defer { backlog.dropped = 0 }
                return backlog.dropped
            }
            if dropped > 0 {
                StandardError.write("understudy: \(dropped) log lines dropped (standard error was not being read)\n")
            }
            StandardError.write(line + "\n")
        }
    }

    /// Waits until every queued line has been written, or `limit` has passed (the writer may be stuck on a
    /// standard error nobody reads).
    func flush(within limit: Duration = .seconds(2)) {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        _ = done.wait(timeout: .now() + .milliseconds(limit.wholeMilliseconds))
    }

    /// Writes all of `text`, waiting for standard error to take it; with `patience`, waits at most that long for
    /// it to become writable each time it is full.
    private static func write(_ text: String, patience: Duration? = nil) {
        var text = text
        let timeout = patience.map { Int32(min($0.wholeMilliseconds, 60_000)) }
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                if let timeout {
                    var descriptor = pollfd(fd: 2, events: Int16(POLLOUT), revents: 0)
                    guard poll(&descriptor, 1, timeout) == 1 else { return }
                }
                let written = Foundation.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var wholeMilliseconds: Int {
        Int(components.seconds) * 1_000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }
}

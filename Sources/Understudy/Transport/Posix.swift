#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The platform differences of the socket and process calls the transport makes, in one place.
enum Posix {
    /// `SOCK_STREAM` as the `Int32` socket calls take (an enum on Glibc, a macro elsewhere).
    static var tcpSocketType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// A TCP socket of `family`, close-on-exec, so a process the host program spawns meanwhile does not inherit it
    /// (and keep a port or a connection open after the server let go of it): atomically with `SOCK_CLOEXEC` where
    /// it exists, else by `fcntl` right after.
    static func tcpSocket(family: Int32) -> Int32 {
        #if os(Linux)
        return socket(family, tcpSocketType | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(family, tcpSocketType, 0)
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return descriptor
        #endif
    }

    /// A pipe whose ends are non-blocking and close-on-exec (set by `fcntl`: `pipe2` is Linux's alone); nil when
    /// the process has no descriptors left.
    static func nonBlockingPipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    /// Raises the soft descriptor limit to the hard one (on Darwin, at most `OPEN_MAX`, which `setrlimit` takes).
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        #if canImport(Darwin)
        limit.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
        #else
        limit.rlim_cur = limit.rlim_max
        #endif
        setrlimit(resource, &limit)
    }

    /// Resets the connection on `descriptor` at once (a TCP RST, no FIN first), leaving the descriptor number open
    /// on an unconnected stand-in socket: whoever owns it (libevent, evhttp) later shuts down and closes the
    /// stand-in as it would have the connection, and no other file can take the number meanwhile. A zero linger
    /// makes the close that `dup2` performs on the connection a reset.
    static func resetKeepingDescriptor(_ descriptor: Int32) {
        var noLinger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &noLinger, socklen_t(MemoryLayout<linger>.size))
        let standIn = tcpSocket(family: AF_INET)
        guard standIn >= 0 else { return }
        dup2(standIn, descriptor)
        close(standIn)
    }
}

import CLibevent
import Foundation

/// The listening sockets of one server, one per address its host stands for (the loopback pair, 127.0.0.1 and
/// ::1, for the default host and `localhost`), all on one port: bound with a backlog of their own, closed and
/// reopened for `offline`, and the port held in between. Used on its loop thread only.
final class Listener {
    let loop: EventLoop
    let http: OpaquePointer
    let host: String
    /// The addresses bound, the host's first (an IPv6 loopback the machine lacks is left out).
    let addresses: [String]
    /// The port bound on every address (the real one when 0 was asked for).
    let port: Int
    /// The listening sockets, owned by evhttp once bound (empty while offline or closed).
    var boundSockets: [OpaquePointer] = []
    /// Bound, non-listening sockets that keep the port while offline.
    var portReservations: [Int32] = []
    var offlineTimer: OpaquePointer?
    var offlineUntil = 0.0
    /// Set by `close`: the listener never opens again.
    private(set) var isClosed = false

    /// Binds the host's addresses on `port` and hands the sockets to `http`.
    init(loop: EventLoop, http: OpaquePointer, host: String, port: Int) throws(ServerError) {
        let bound = try Listener.bindAll(Listener.addresses(for: host), port: port, base: loop.base)
        self.loop = loop
        self.http = http
        self.host = host
        self.addresses = bound.addresses
        self.port = bound.port
        boundSockets = bound.listeners.compactMap { evhttp_bind_listener(http, $0) }
    }

    /// Stops accepting for good (shutdown): the socket, the reservation and the offline timer go.
    func close() {
        isClosed = true
        if let offlineTimer {
            event_free(offlineTimer)
            self.offlineTimer = nil
        }
        portReservations.forEach { Foundation.close($0) }
        portReservations = []
        boundSockets.forEach { evhttp_del_accept_socket(http, $0) }
        boundSockets = []
    }

    /// Binds a listening socket with a 1,024-connection backlog (evhttp's own bind hard-codes 128) and
    /// TCP_NODELAY, which accepted sockets inherit.
    static func bind(host: String, port: Int, base: OpaquePointer) throws(ServerError) -> (listener: OpaquePointer, port: Int) {
        guard (0...65_535).contains(port) else {
            throw ServerError(kind: .listenerFailed, description: "port \(port) is outside 0…65535")
        }
        return try withAddress(host: host, port: port) { address throws(ServerError) in
            try listen(on: address, host: host, port: port, base: base)
        }
    }

    /// Holds the port while offline: a bound socket that does not listen, so connection attempts are refused
    /// and no other socket in the process or machine is handed the port in the meantime.
    static func reservePort(host: String, port: Int) -> Int32? {
        try? withAddress(host: host, port: port) { address throws(ServerError) -> Int32 in
            let descriptor = Posix.tcpSocket(family: address.pointee.ai_family)
            guard descriptor >= 0 else { throw ServerError(kind: .listenerFailed, description: "socket") }
            var enabled: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &enabled, socklen_t(MemoryLayout<Int32>.size))
            guard Foundation.bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
                Foundation.close(descriptor)
                throw ServerError(kind: .addressInUse, description: "bind")
            }
            return descriptor
        }
    }

    private static func withAddress<T>(host: String, port: Int,
                                       _ body: (UnsafeMutablePointer<addrinfo>) throws(ServerError) -> T) throws(ServerError) -> T {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Posix.tcpSocketType
        var resolved: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &resolved)
        guard status == 0, let first = resolved else {
            throw ServerError(kind: .invalidHost, description: "cannot listen on host '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(resolved) }
        return try body(first)
    }

    private static func listen(on first: UnsafeMutablePointer<addrinfo>, host: String, port: Int,
                               base: OpaquePointer) throws(ServerError) -> (listener: OpaquePointer, port: Int) {
        let flags = LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC
        guard let listener = evconnlistener_new_bind(base, nil, nil, UInt32(flags), 1_024, first.pointee.ai_addr,
                                                     Int32(first.pointee.ai_addrlen)) else {
            let code = errno
            let reason = String(cString: strerror(code))
            if code == EADDRINUSE {
                throw ServerError(kind: .addressInUse, description: "port \(port) on \(host) is already in use")
            }
            if code == EADDRNOTAVAIL || code == EAFNOSUPPORT {
                throw ServerError(kind: .invalidHost, description: "cannot listen on \(host):\(port): \(reason)")
            }
            throw ServerError(kind: .listenerFailed, description: "cannot listen on \(host):\(port): \(reason)")
        }
        let socket = evconnlistener_get_fd(listener)
        var enabled: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
        return (listener, boundPort(of: socket))
    }

    private static func boundPort(of socket: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socket, $0, &length) }
        }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }
}

import Foundation

/// A loopback port held by a socket of the test's: bound, and listening or not. Nothing answers on it unless the
/// test takes a connection and answers by hand, and no parallel test's server can be given it while it is held.
package final class HeldPort: Sendable {
    /// The port; 0 when no socket could be bound.
    package let port: Int
    private let descriptor: Int32

    /// `listening`: the kernel completes connections that nobody accepts (an upstream that never answers); not
    /// listening, connections are refused.
    package init(listening: Bool) {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = descriptor
        port = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic -> Int in
                guard bind(descriptor, generic, length) == 0, !listening || listen(descriptor, 4) == 0,
                      getsockname(descriptor, generic, &length) == 0 else { return 0 }
                return Int(UInt16(bigEndian: pointer.pointee.sin_port))
            }
        }
    }

    /// The next connection to a listening port, blocking until one comes; -1 on failure. The caller closes it.
    package func acceptConnection() -> Int32 {
        accept(descriptor, nil, nil)
    }

    deinit {
        close(descriptor)
    }
}

import CLibevent
import Foundation

extension Listener {
    /// The addresses a host stands for: the loopback pair for the default host (`127.0.0.1`) and `localhost`,
    /// else the host alone.
    ///
    /// Why both: macOS resolves `localhost` to ::1 first, and an iOS app must say `localhost` (App Transport
    /// Security refuses plain http to an IP address), so a server on 127.0.0.1 alone would be reached only after a
    /// refused ::1 attempt, or not at all by a client that tries one address.
    static func addresses(for host: String) -> [String] {
        host == "127.0.0.1" || host.lowercased() == "localhost" ? ["127.0.0.1", "::1"] : [host]
    }

    /// Binds every address on one port. With port 0 the first address picks the port and the others take the
    /// same one; if another socket holds it on one of them, all are let go and a new port is tried. An extra
    /// address the machine lacks (::1 where IPv6 is off) is left out; the first must bind.
    static func bindAll(_ addresses: [String], port: Int,
                        base: OpaquePointer) throws(ServerError) -> (listeners: [OpaquePointer], addresses: [String], port: Int) {
        var attempts = 0
        while true {
            attempts += 1
            let first = try bind(host: addresses[0], port: port, base: base)
            var listeners = [first.listener]
            var bound = [addresses[0]]
            var clash: ServerError?
            for extra in addresses.dropFirst() {
                do {
                    listeners.append(try bind(host: extra, port: first.port, base: base).listener)
                    bound.append(extra)
                } catch where error.kind == .invalidHost {
                    continue
                } catch {
                    clash = error
                    break
                }
            }
            guard let clash else { return (listeners, bound, first.port) }
            listeners.forEach { evconnlistener_free($0) }
            guard port == 0, clash.kind == .addressInUse, attempts < 16 else { throw clash }
        }
    }
}

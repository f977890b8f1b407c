import CLibevent
import Foundation

extension Listener {
    /// Closes the listening socket so new connections are refused, and opens it again after `milliseconds`.
    /// Open connections keep being served.
    func goOffline(forMilliseconds milliseconds: Int) {
        if !boundSockets.isEmpty {
            boundSockets.forEach { evhttp_del_accept_socket(http, $0) }
            boundSockets = []
            portReservations = addresses.compactMap { Listener.reservePort(host: $0, port: port) }
        }
        offlineUntil = EventLoop.monotonicMilliseconds() + Double(milliseconds)
        if offlineTimer == nil {
            offlineTimer = loop.makeTimer(repeating: true, argument: Unmanaged.passUnretained(self).toOpaque()) { _, _, argument in
                guard let argument else { return }
                Unmanaged<Listener>.fromOpaque(argument).takeUnretainedValue().comeBackOnlineWhenDue()
            }
            loop.arm(offlineTimer, inMicroseconds: 20_000)
        }
    }

    /// Whether new connections are being refused now.
    var isOffline: Bool { boundSockets.isEmpty && !isClosed }

    private func comeBackOnlineWhenDue() {
        guard !isClosed, EventLoop.monotonicMilliseconds() >= offlineUntil else { return }
        portReservations.forEach { Foundation.close($0) }
        portReservations = []
        // Another process may hold the port for a moment; keep trying on the next tick.
        guard let bound = try? Listener.bindAll(addresses, port: port, base: loop.base) else { return }
        boundSockets = bound.listeners.compactMap { evhttp_bind_listener(http, $0) }
        if let offlineTimer {
            event_free(offlineTimer)
            self.offlineTimer = nil
        }
    }
}

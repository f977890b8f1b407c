import CLibevent
import Foundation

extension Listener {
    /// Closes the listening socket so new connections are refused, and opens it again after `milliseconds`.
    /// Open connections keep being served.
    func goOffline(forMilliseconds milliseconds: Int) {
        if let boundSocket {
            evhttp_del_accept_socket(http, boundSocket)
            self.boundSocket = nil
            portReservation = Listener.reservePort(host: host, port: port)
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
    var isOffline: Bool { boundSocket == nil && !isClosed }

    private func comeBackOnlineWhenDue() {
        guard !isClosed, EventLoop.monotonicMilliseconds() >= offlineUntil else { return }
        if let portReservation {
            Foundation.close(portReservation)
            self.portReservation = nil
        }
        // Another process may hold the port for a moment; keep trying on the next tick.
        guard let bound = try? Listener.bind(host: host, port: port, base: loop.base) else { return }
        boundSocket = evhttp_bind_listener(http, bound.listener)
        if let offlineTimer {
            event_free(offlineTimer)
            self.offlineTimer = nil
        }
    }
}

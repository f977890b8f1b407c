import CLibevent
import Foundation

extension EventLoop {
    /// Closes the listening socket so new connections are refused, and opens it again after `milliseconds`.
    /// Open connections keep being served.
    func goOffline(forMilliseconds milliseconds: Int) {
        if let boundSocket {
            evhttp_del_accept_socket(http, boundSocket)
            self.boundSocket = nil
            portReservation = EventLoop.reservePort(host: configuration.host, port: port)
        }
        offlineUntil = EventLoop.monotonicMilliseconds() + Double(milliseconds)
        if offlineTimer == nil {
            offlineTimer = event_new(base, -1, Int16(EV_PERSIST), { _, _, argument in
                guard let argument else { return }
                Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().comeBackOnlineWhenDue()
            }, Unmanaged.passUnretained(self).toOpaque())
            arm(offlineTimer, inMicroseconds: 20_000)
        }
    }

    /// Whether new connections are being refused now.
    var isOffline: Bool { boundSocket == nil && !isShuttingDown }

    private func comeBackOnlineWhenDue() {
        guard !isShuttingDown, EventLoop.monotonicMilliseconds() >= offlineUntil else { return }
        if let portReservation {
            Foundation.close(portReservation)
            self.portReservation = nil
        }
        // Another process may hold the port for a moment; keep trying on the next tick.
        guard let bound = try? EventLoop.bind(host: configuration.host, port: port, base: base) else { return }
        boundSocket = evhttp_bind_listener(http, bound.listener)
        if let offlineTimer {
            event_free(offlineTimer)
            self.offlineTimer = nil
        }
    }
}

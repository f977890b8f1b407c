import CLibevent

extension EventLoop {
    /// A timer on this base that calls `callback` with `argument`, once or (`repeating`) every time it is armed.
    func makeTimer(repeating: Bool, argument: UnsafeMutableRawPointer,
                   _ callback: @convention(c) (Int32, Int16, UnsafeMutableRawPointer?) -> Void) -> OpaquePointer? {
        event_new(base, -1, repeating ? Int16(EV_PERSIST) : 0, callback, argument)
    }

    /// Adds `event` (a timer) to fire `microseconds` from now, every time for a persistent one.
    ///
    /// libevent adds a timeout to the time it cached when the current loop pass began; in a burst of work that is
    /// milliseconds old, and the timer would fire that much early. So the cache is refreshed first.
    func arm(_ event: OpaquePointer?, inMicroseconds microseconds: Int) {
        event_base_update_cache_time(base)
        let microseconds = max(0, microseconds)
        var interval = timeval(tv_sec: microseconds / 1_000_000, tv_usec: .init(microseconds % 1_000_000))
        event_add(event, &interval)
    }
}

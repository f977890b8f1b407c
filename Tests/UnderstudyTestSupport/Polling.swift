/// Polls `condition` every 20 ms until it holds or `limit` passes; returns whether it held. Every Swift test target
/// waits with this, never with a fixed sleep.
///
/// A condition that throws has not held yet (a connection refused while a server is offline, say): the poll goes
/// on, and the caller's `#expect` on the result says what never happened.
///
/// Give it a generous limit; it returns as soon as the condition holds, so a long one costs nothing when the test
/// passes. On a two-core machine the suite's raw-socket tests block the cooperative pool's threads in `recv` for
/// seconds at a time, and a poll that could not run meanwhile is no failure of the server (10 s limits failed so).
@discardableResult
package func waitUntil(within limit: Duration, _ condition: () async throws -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while (try? await condition()) != true {
        // Asked once more at the deadline: a task the machine left waiting past it still sees the state then.
        guard ContinuousClock.now < deadline else { return (try? await condition()) == true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

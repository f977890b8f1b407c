/// The indexes one request needs that are not built yet, before its responder can answer without holding the event
/// loop up: the one that narrows its items (search text or a filter's values), a sort order, or both
/// (`Router+Groundwork` says which). Each step starts building its index unless it is kept by now and calls back
/// once it is (false, and no call, when it is kept). The writer holds the request meanwhile.
struct Groundwork: Sendable {
    typealias Step = @Sendable (_ ready: @escaping @Sendable () -> Void) -> Bool
    let narrowing: Step?
    let sort: Step?

    /// Starts building, off the loop, each index not built yet, and calls `ready` (on the builder's thread) once
    /// all are; false when every one is kept by now, and the request is routed at once.
    func start(then ready: @escaping @Sendable () -> Void) -> Bool {
        guard let narrowing else { return sort?(ready) ?? false }
        guard let sort else { return narrowing(ready) }
        // One build at a time: the sort order is asked for once the items' index is there.
        if narrowing({ if !sort(ready) { ready() } }) { return true }
        return sort(ready)
    }
}


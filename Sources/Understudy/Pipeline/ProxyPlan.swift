/// What the fault decision asks of a proxied reply's body, which the upstream has not sent yet: the delivery
/// (`ProxiedReply`) carries it out on the bytes as they arrive.
struct ProxyPlan: Equatable {
    /// Send part of the body, then close.
    var truncation: FaultSpec.Truncation?
    /// Dribble the body.
    var pacing: FaultSpec.Pacing?
    /// Pause mid-body (`stall`), at offsets drawn from `scheduleSeed`: for a body whose length the upstream says.
    var stall: ClosedRange<Int>?
    var scheduleSeed: UInt64 = 0
    /// Send the upstream's head, then an RST.
    var resetAfterHead = false
    /// Break a 2xx body's JSON (the whole body is held for this one fault: it needs all of it).
    var malformed: FaultSpec.Malformation?
    /// The stream faults, for an upstream reply that turns out to be an event stream.
    var stream = FaultSpec.StreamFaults()
    /// What `X-Understudy-Fault-Applied` says once the upstream's head tells which kind of reply it is: the
    /// stream directives act on an event stream only, the body directives on anything else.
    var appliedToStream: String?
    var appliedToBody: String?
}

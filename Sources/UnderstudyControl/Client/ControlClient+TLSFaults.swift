import Foundation

extension ControlClient {
    // MARK: TLS faults

    /// Makes the next `times` TLS handshakes (after those already queued) go wrong with `fault`
    /// (`POST /__understudy/tls-faults`).
    ///
    /// A handshake is a new connection: a client reusing a kept-alive connection sees no fault until it opens
    /// another one.
    ///
    /// - Parameters:
    ///   - fault: What the handshakes go wrong with.
    ///   - times: How many handshakes, 1 to 10,000.
    /// - Returns: The fault as queued.
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server serves no HTTPS,
    ///   ``ControlError/Kind/badRequest`` for `times` out of range.
    @discardableResult
    public func queueTLSFault(_ fault: TLSFaultKind, times: Int = 1) async throws(ControlError) -> QueuedTLSFault {
        try await call("POST", "tls-faults", body: QueueTLSFault(fault: fault, times: times))
    }

    /// Sets a TLS fault (`POST /__understudy/tls-faults`): for the next handshakes, after those already queued, as
    /// ``queueTLSFault(_:times:)`` does, or for every handshake asking for an SNI name.
    ///
    /// ```swift
    /// try await control.addTLSFault(Fault.TLS(.expired, serverName: "localhost"))
    /// ```
    ///
    /// A TLS fault is the whole server's, not a session's: a handshake comes before any request says which
    /// session it is in. ``clearTLSFaults()`` drops it.
    ///
    /// - Parameter fault: The fault, and which handshakes it takes.
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server serves no HTTPS,
    ///   ``ControlError/Kind/badRequest`` for `times` out of range, or an SNI name the server's certificate does
    ///   not carry (the client would see a hostname mismatch rather than the fault).
    public func addTLSFault(_ fault: Fault.TLS) async throws(ControlError) {
        _ = try await exchange("POST", "tls-faults", body: fault)
    }

    /// The TLS faults set, and the handshakes already presented with one (`GET /__understudy/tls-faults`).
    ///
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server serves no HTTPS.
    public func tlsFaults() async throws(ControlError) -> TLSFaultStatus {
        try await call("GET", "tls-faults")
    }

    /// Drops every TLS fault set, queued or for an SNI name; returns how many there were
    /// (`DELETE /__understudy/tls-faults`). The fixed SNI names keep presenting theirs.
    ///
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server serves no HTTPS.
    @discardableResult
    public func clearTLSFaults() async throws(ControlError) -> Int {
        try await call("DELETE", "tls-faults", as: Deleted.self).deleted
    }
}

/// `{"fault", "times"}`.
private struct QueueTLSFault: Encodable, Sendable {
    var fault: TLSFaultKind
    var times: Int
}

import Foundation

extension ControlClient {
    // MARK: A served OpenAPI document

    /// The document the server serves and its operations (`GET /__understudy/spec`).
    ///
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server serves no document.
    public func specDocument() async throws(ControlError) -> SpecDocument {
        try await call("GET", "spec")
    }

    /// Answers every request of an operation as `preference` says, under each request's own `Prefer`
    /// (`PUT /__understudy/spec/operations/{id}`): a demo forces a 503 on one endpoint, a test a named example.
    ///
    /// ```swift
    /// try await control.prefer(.code(503), forOperation: "listPets")
    /// ```
    ///
    /// - Parameters:
    ///   - preference: The status, example, generation or seed; an empty one clears it.
    ///   - operation: The operation's id, as ``SpecOperation/id`` lists it.
    /// - Returns: The operation with its preference.
    /// - Throws: ``ControlError``; ``ControlError/Kind/notFound`` for an id the document lacks,
    ///   ``ControlError/Kind/badRequest`` for a status the operation does not document.
    @discardableResult
    public func prefer(_ preference: SpecPreference, forOperation operation: String) async throws(ControlError) -> SpecOperation {
        try await call("PUT", "spec/operations/\(segment(operation))", body: preference)
    }

    /// Drops the preference set on an operation (`DELETE /__understudy/spec/operations/{id}`).
    ///
    /// - Parameter operation: The operation's id.
    /// - Throws: ``ControlError``; ``ControlError/Kind/notFound`` for an id the document lacks.
    @discardableResult
    public func clearPreference(forOperation operation: String) async throws(ControlError) -> SpecOperation {
        try await call("DELETE", "spec/operations/\(segment(operation))")
    }

    /// Forgets what requests stored (`DELETE /__understudy/spec/state`): the collections are the document's again,
    /// for one session or for all.
    ///
    /// - Parameter session: The session whose state to forget; nil, every session's.
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server serves no document.
    public func resetSpecState(session: String? = nil) async throws(ControlError) {
        _ = try await exchange("DELETE", "spec/state", query: session.map { [URLQueryItem(name: "session", value: $0)] } ?? [])
    }

    // MARK: Holding an upstream to its document

    /// How the upstream's traffic kept the document (`GET /__understudy/violations`), for a server started with
    /// `--upstream URL --spec FILE`.
    ///
    /// ```swift
    /// let report = try await control.contractReport()
    /// #expect(report.violations == 0, "\(report.recent.flatMap(\.violations))")
    /// ```
    ///
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server holds no upstream to a document.
    public func contractReport() async throws(ControlError) -> ContractReport {
        try await call("GET", "violations")
    }

    /// Starts the report afresh (`DELETE /__understudy/violations`); returns how many violations it held.
    ///
    /// - Throws: ``ControlError``; ``ControlError/Kind/conflict`` when the server holds no upstream to a document.
    @discardableResult
    public func clearContractReport() async throws(ControlError) -> Int {
        try await call("DELETE", "violations", as: Deleted.self).deleted
    }
}

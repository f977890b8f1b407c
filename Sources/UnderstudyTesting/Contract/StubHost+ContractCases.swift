import Foundation

extension StubHost {
    /// A host that answers each request with the recorded response of the case whose request it is (the one that
    /// pins the most headers, when several are), and with a 404 `{"message"}` naming the request when none is.
    ///
    /// - Parameter cases: The cases to answer from.
    public convenience init(contractCases cases: [ContractCase]) {
        self.init(fallback: { request in
            let best = cases.filter { $0.matches(request) }.max { $0.headers.count < $1.headers.count }
            return best?.response ?? .message("no contract case for \(request.method) \(request.url?.path ?? "")", status: 404)
        })
    }

    /// A host answering from case files, e.g. ones of your own in the same format.
    ///
    /// - Parameter urls: Case files.
    /// - Throws: ``ContractCase/LoadError`` for a file that is not a replayable case.
    public convenience init(contractCases urls: [URL]) throws {
        self.init(contractCases: try urls.map(ContractCase.init(contentsOf:)))
    }

    /// A host answering from the cases shipped with this library, by name.
    ///
    /// ```swift
    /// let host = try StubHost(contractCasesNamed: "products-by-id", "auth-me", "auth-me-missing-token")
    /// ```
    ///
    /// - Parameter names: Case names, e.g. `"products-by-id"`.
    /// - Throws: ``ContractCase/LoadError`` for a name with no replayable case.
    public convenience init(contractCasesNamed names: String...) throws {
        self.init(contractCases: try names.map(ContractCase.named))
    }
}

import Foundation
import UnderstudyOpenAPI
import UnderstudyRecording

extension OpenAPISpec {
    /// How a recorded exchange breaks the document, one line each (`response.body#/price: type: must be number,
    /// not string`): what `--upstream URL --spec FILE` would report of it live. Empty when it keeps the document.
    ///
    /// A recording (`--record`), a HAR a tester exported, or an exchange built in a test can be held to the
    /// document this way, with no server:
    ///
    /// ```swift
    /// for entry in try Recording(contentsOf: recordings).entries {
    ///     for response in entry.responses {
    ///         #expect(spec.violations(of: RecordedExchange(request: entry.request, response: response)).isEmpty)
    ///     }
    /// }
    /// ```
    public func violations(of exchange: RecordedExchange) -> [String] {
        let checker = ContractChecker(document: document)
        let request = exchange.request
        let rawQuery = request.query.isEmpty ? nil : request.query.map { item in
            OpenAPISpec.formEncoded(item.name) + "=" + OpenAPISpec.formEncoded(item.value)
        }.joined(separator: "&")
        let mock = MockRequest(method: request.method, path: request.path, rawQuery: rawQuery,
                               headers: request.headers.map { (name: $0.name, value: $0.value) }, body: request.body)
        let (operation, requestViolations) = checker.check(mock)
        var found = requestViolations
        if let operation {
            let response = exchange.response
            found += checker.check(status: response.status, headers: response.headers.map { (name: $0.name, value: $0.value) },
                                   body: response.body, of: operation, isHead: request.method == "HEAD")
        }
        return found.map(\.description)
    }

    /// A query name or value as a form writes it, so the checker reads back what the recording holds.
    private static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// How a document is served.
package struct MockOptions: Sendable {
    /// Whether requests are checked against the document (`--validate off` answers whatever is sent).
    package var validatesRequests = true
    /// Whether collections the document implies keep what is written to them (`--stateless` turns it off).
    package var stateful = true
    /// Whether formats (`date-time`, `email`, `uuid`…) of requests are checked, not only read as annotations.
    package var assertsFormats = false
    /// Whether bodies are generated from schemas by default (`Prefer: dynamic=` still chooses per request).
    package var dynamic = false

    package init() {}
}

/// One HAR entry Understudy can replay: the request as the client sent it and the reply as it came back, with
/// every exporter's quirks already undone (bodies decoded, pseudo-headers and transfer headers dropped).
package struct HARExchange: Sendable, Equatable {
    /// One header line, in the order the exporter listed it.
    package struct Header: Sendable, Equatable {
        /// The name as the exporter wrote it (HTTP/2 exporters write it lower-case).
        package var name: String
        /// The value.
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The entry's position in the file's `log.entries` (from 0), for messages that point back at the file.
    package var entryIndex: Int
    /// The method, upper-cased.
    package var method: String
    /// The URL's scheme and authority as written (`https://api.example.com:8443`).
    package var origin: String
    /// The URL's path as written (percent-escapes kept); `/` when the URL has none.
    package var path: String
    /// The URL's query as written, without `?`; nil when there is none.
    package var query: String?
    /// The request's headers.
    package var requestHeaders: [Header]
    /// The request's body; empty when there was none or the exporter kept none (see `notes`).
    package var requestBody: [UInt8]
    /// The reply's status code.
    package var status: Int
    /// The reply's headers.
    package var responseHeaders: [Header]
    /// The reply's body as the client read it: decompressed, and decoded from base64 when the exporter encoded it.
    package var responseBody: [UInt8]
    /// How long the exchange took, in milliseconds, when the exporter gave a time that can be trusted.
    package var milliseconds: Double?
    /// What was imported short of the original (a request body the exporter did not keep, a query rebuilt from
    /// `queryString`), one sentence each.
    package var notes: [String]

    package init(entryIndex: Int, method: String, origin: String, path: String, query: String?,
                 requestHeaders: [Header], requestBody: [UInt8], status: Int, responseHeaders: [Header],
                 responseBody: [UInt8], milliseconds: Double?, notes: [String]) {
        self.entryIndex = entryIndex
        self.method = method
        self.origin = origin
        self.path = path
        self.query = query
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.milliseconds = milliseconds
        self.notes = notes
    }

    /// `GET /products?limit=5`: how a message names the request.
    package var summary: String {
        "\(method) \(path)\(query.map { "?\($0)" } ?? "")"
    }

    /// The first value of a request header, whatever the case of its name.
    package func requestHeader(_ name: String) -> String? {
        requestHeaders.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The first value of a reply header, whatever the case of its name.
    package func responseHeader(_ name: String) -> String? {
        responseHeaders.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

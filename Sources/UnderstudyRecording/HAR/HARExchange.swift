/// One HAR entry Understudy can replay: the exchange as a recording keeps it, with every exporter's quirks already
/// undone (bodies decoded, pseudo-headers and wire framing dropped), and what the import could not keep.
package struct HARExchange: Sendable, Equatable {
    /// The entry's position in the file's `log.entries` (from 0), for messages that point back at the file.
    package var entryIndex: Int
    /// The request as the client sent it and the reply as it came back (secrets still in: the writer redacts).
    package var recorded: RecordedExchange
    /// The URL's scheme and authority as written (`https://api.example.com:8443`): a replay matches without it.
    package var origin: String
    /// How long the exchange took, in milliseconds, when the exporter gave a time (-1 or absent when it did not).
    package var milliseconds: Double?
    /// What was imported short of the original (a request body the exporter did not keep, a query rebuilt from
    /// `queryString`), one sentence each.
    package var notes: [String]

    /// The origin's authority, lower-cased (`api.example.com:8443`).
    package var authority: String {
        let parts = origin.split(separator: "/", omittingEmptySubsequences: true)
        let authority = parts.count > 1 ? parts[1] : Substring("")
        return String(authority.split(separator: "@").last ?? authority).lowercased()
    }

    /// The host name alone, without port or user (`api.example.com`, `[::1]`).
    package var host: String {
        let authority = authority
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[...close])
        }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "")
    }

    /// `GET https://api.example.com/products?limit=5`: the request as the file wrote it, for messages.
    package var url: String {
        "\(recorded.request.method) \(origin)\(String(summary.dropFirst(recorded.request.method.count + 1)))"
    }

    /// `GET /products?limit=5`: how a message names the request.
    package var summary: String {
        ReplayMiss.describe(recorded.request)
    }
}

import UnderstudyJSON

/// The program that wrote a HAR file, told by `log.creator.name`, and the quirks of its HAR that the import undoes.
///
/// What each exporter writes (the facts the reader relies on):
/// - **Chrome DevTools** ("Save all as HAR", creator `WebInspector`): bodies in `content.text`, base64 with
///   `content.encoding: "base64"` for images and anything not text; `text` absent when DevTools kept no body
///   (redirects, evicted resources). HTTP/2 requests list the pseudo-headers `:authority`, `:method`, `:path`,
///   `:scheme`. Private fields start with `_` (`_resourceType`, `_initiator`, `_priority`, `_transferSize`,
///   `_fromCache`); a failed request has status 0 and `_error` (`net::ERR_…`); a WebSocket has
///   `_resourceType: "websocket"` and `_webSocketMessages`. `postData` has `text`, and `params` too for a form.
///   Timings are -1 for a phase that did not happen; `content.mimeType` is `x-unknown` when there is none; the URL
///   has no fragment. The sanitized export leaves out `Cookie`, `Set-Cookie` and `Authorization`.
/// - **Pulse** (creator `Pulse HAR generation tool`): entries grouped by URL, then the task of each log message
///   that has one appended again, so a task can appear twice (the copy differs only in `pageref`). `queryString`
///   and `cookies` are always empty (the query is only in the URL); `httpVersion` is always `HTTP/2`; there is no
///   `postData` (request bodies are not exported) and `bodySize` is -1. A task that failed has status 0, and
///   `content` is absent when the reply had no body. `content.text` is the body decoded as UTF-8 with
///   `content.encoding: ""`, so a binary body arrives with U+FFFD replacement characters and cannot be
///   recovered. `statusText` is empty; `timings` may be absent, and `wait`, `send` and `receive` are seconds,
///   not milliseconds (`time` is milliseconds). Headers come from a dictionary: one line per name, in no set order.
/// - **Proxyman and Charles** (creators `Proxyman`, `Charles Proxy`): proxies, which list a tunnel to a host they
///   did not decrypt as a `CONNECT` entry with nothing inside to replay, and whose headers are the ones on the wire:
///   `Content-Encoding: gzip` and the compressed `Content-Length` stay while `content.text` is the decompressed
///   body (`content.compression` says how much smaller the wire was). Binary replies are base64 with
///   `content.encoding`. HAR 1.2 has no field for a binary request body (Proxyman's issue 1614); exporters that
///   write one put base64 in `postData.text` with `postData.encoding: "base64"`, the HAR 1.3 proposal's field.
/// - **Everyone**: HAR 1.2 allows `_`-prefixed fields anywhere, and `comment` on every object; `bodySize`,
///   `headersSize` and `content.size` are -1 or absent when unknown; `cookies` repeats what the `Cookie` and
///   `Set-Cookie` headers say.
package struct HARExporter: Sendable, Equatable, CustomStringConvertible {
    /// The exporters whose quirks the reader knows by name.
    package enum Kind: Sendable, Equatable {
        case chrome, pulse, proxyman, charles, other
    }

    /// Which exporter it is.
    package var kind: Kind
    /// `log.creator.name` and `version` as written, or `unknown` when the file names none.
    package var name: String

    /// The exporter a `log.creator` object names.
    package init(creator: JSONValue?) {
        let creatorName = creator?["name"]?.stringValue ?? ""
        let version = creator?["version"]?.stringValue ?? ""
        name = creatorName.isEmpty ? "unknown" : version.isEmpty ? creatorName : "\(creatorName) \(version)"
        let lowered = creatorName.lowercased()
        kind = lowered == "webinspector" ? .chrome
            : lowered.contains("pulse") ? .pulse
            : lowered.contains("proxyman") ? .proxyman
            : lowered.contains("charles") ? .charles
            : .other
    }

    package var description: String {
        switch kind {
        case .chrome: "Chrome DevTools (\(name))"
        case .pulse: "Pulse (\(name))"
        case .proxyman, .charles, .other: name
        }
    }
}

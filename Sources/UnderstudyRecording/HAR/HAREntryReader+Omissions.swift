import UnderstudyJSON

extension HAREntryReader {
    /// Whether an entry is a WebSocket by its own word: a ws/wss URL, `_resourceType: websocket`, a 101 whose
    /// `Upgrade` is websocket, or messages in `_webSocketMessages`. Proxyman writes `"_webSocketMessages": null`
    /// on every entry, so the field being there says nothing.
    static func isWebSocket(_ entry: JSONValue, url: HARURL) -> Bool {
        if url.scheme == "ws" || url.scheme == "wss" { return true }
        if entry["_resourceType"]?.stringValue?.lowercased() == "websocket" { return true }
        if case .array(let messages)? = entry["_webSocketMessages"], !messages.isEmpty { return true }
        guard let response = entry["response"], response["status"]?.intValue == 101,
              case .array(let headers)? = response["headers"] else { return false }
        return headers.contains {
            $0["name"]?.stringValue?.lowercased() == "upgrade" && $0["value"]?.stringValue?.lowercased() == "websocket"
        }
    }

    /// `GET https://host/path?query`: how entries for the same request are told apart across the file.
    static func key(method: String, url: String) -> String {
        let withoutFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return method.uppercased() + " " + withoutFragment
    }

    /// Why a reply's body is missing from the file, or nil when the file holds it (or it is known to be empty).
    ///
    /// The exporters' marks: Firefox writes `content.comment: "Response bodies are not included."` (with no
    /// `content.size` and no headers for a reply it served from its cache); others leave out `content.text` with
    /// a positive `content.size`, or with `size` -1 or absent and a positive `bodySize`. Without such a mark the
    /// body is empty: Pulse leaves out `content` for a reply without one, and a redirect's `Location` is its reply.
    static func omission(_ response: JSONValue, status: Int) -> String? {
        let content = response["content"]
        let size = content?["size"]?.intValue
        let wireSize = response["bodySize"]?.intValue
        let text = content?["text"]?.stringValue
        if let text, !text.isEmpty { return nil }
        if let comment = content?["comment"]?.stringValue, !comment.isEmpty {
            return "the exporter did not keep its body (it says \"\(comment)\")"
        }
        if let size, size > 0 {
            return "the exporter did not keep its body (content.size \(size), no content.text)"
        }
        if text == nil, let wireSize, wireSize > 0, size == nil || size == -1, !(300..<400).contains(status) {
            return "the exporter did not keep its body (bodySize \(wireSize), no content.text)"
        }
        return nil
    }
}

/// Media type names as the mock compares them: the essence (`application/json` of `application/json;
/// charset=utf-8`), lower-case; a document's key may be a range (`application/*`, `*/*`).
enum MediaTypes {
    static func essence(_ value: String) -> String {
        (value.split(separator: ";").first.map { Substring($0).trimmingSpaces } ?? value).lowercased()
    }

    static func matches(_ type: String, pattern: String) -> Bool {
        let pattern = essence(pattern)
        if pattern == "*/*" || pattern == type { return true }
        if pattern.hasSuffix("/*") { return type.hasPrefix(pattern.dropLast()) }
        return false
    }

    static func isJSON(_ type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json") || type == "text/json"
    }

    /// The media types an `Accept` header takes, best first (q=0 ones left out).
    static func accepted(_ header: String) -> [String] {
        let ranked: [(type: String, quality: Double, order: Int)] = header.split(separator: ",").enumerated().compactMap { offset, part in
            let pieces = part.split(separator: ";")
            let type = pieces.first.map { Substring($0).trimmingSpaces.lowercased() } ?? ""
            var quality = 1.0
            for parameter in pieces.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingSpaces == "q" { quality = Double(pair[1].trimmingSpaces) ?? 1 }
            }
            return type.isEmpty || quality <= 0 ? nil : (type, quality, offset)
        }
        return ranked.sorted { ($0.quality, -$0.order) > ($1.quality, -$1.order) }.map(\.type)
    }
}

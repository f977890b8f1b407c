/// URI references as JSON Schema and OpenAPI use them (RFC 3986): resolving one against a base, and splitting off
/// the fragment. Written out rather than through Foundation's URL, which does not resolve against a URN base.
package enum URIReference {
    /// `reference` resolved against `base` (RFC 3986, 5.2).
    package static func resolve(_ reference: String, against base: String) -> String {
        // A fragment alone (`#/components/schemas/Pet`, most references) keeps the base and changes its fragment.
        if reference.utf8.first == UInt8(ascii: "#") { return split(base).base + reference }
        let ref = Parts(reference)
        if ref.scheme != nil { return ref.withPath(removeDotSegments(ref.path)).text }
        let baseParts = Parts(base)
        var target = Parts()
        target.scheme = baseParts.scheme
        if ref.authority != nil {
            target.authority = ref.authority
            target.path = removeDotSegments(ref.path)
            target.query = ref.query
        } else {
            target.authority = baseParts.authority
            if ref.path.isEmpty {
                target.path = baseParts.path
                target.query = ref.query ?? baseParts.query
            } else {
                if ref.path.hasPrefix("/") {
                    target.path = removeDotSegments(ref.path)
                } else {
                    target.path = removeDotSegments(merge(baseParts, ref.path))
                }
                target.query = ref.query
            }
        }
        target.fragment = ref.fragment
        return target.text
    }

    /// The URI without its fragment, and the fragment (nil when there is no `#`).
    package static func split(_ uri: String) -> (base: String, fragment: String?) {
        guard let mark = uri.firstIndex(of: "#") else { return (uri, nil) }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }

    private static func merge(_ base: Parts, _ path: String) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    private static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let absolute = path.hasPrefix("/")
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if index == 0, absolute { continue }
            switch segment {
            case ".": if index == segments.count - 1 { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if index == segments.count - 1 { output.append("") }
            default: output.append(segment)
            }
        }
        return (absolute ? "/" : "") + output.joined(separator: "/")
    }

    /// A URI reference's five parts.
    private struct Parts {
        var scheme: String?
        var authority: String?
        var path = ""
        var query: String?
        var fragment: String?

        init() {}

        init(_ text: String) {
            var rest = Substring(text)
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: question)...])
                rest = rest[..<question]
            }
            if let colon = rest.firstIndex(of: ":"), rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
               rest.first?.isLetter == true {
                scheme = String(rest[..<colon])
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex(of: "/") ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            path = String(rest)
        }

        func withPath(_ path: String) -> Parts {
            var copy = self
            copy.path = path
            return copy
        }

        var text: String {
            var result = ""
            if let scheme { result += scheme + ":" }
            if let authority { result += "//" + authority }
            result += path
            if let query { result += "?" + query }
            if let fragment { result += "#" + fragment }
            return result
        }
    }
}

import Foundation

/// Joins a base URL, a relative path and query items without force-unwrapping anything.
enum URLBuilder {
    /// Characters left as they are in a query name or value. `+`, `&`, `=` and `;` are escaped because servers
    /// read `+` as a space and the others as separators.
    private static let queryAllowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "+&=;#")
        return set
    }()

    /// The absolute URL for `path` under `baseURL`, with `queryItems` appended.
    ///
    /// - Throws: ``APIError/Kind/invalidURL`` when the base is not absolute http(s) with a host, or the result is
    ///   not a valid URL.
    static func url(baseURL: URL, path: String, queryItems: [URLQueryItem]) throws(APIError) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else {
            throw invalid(baseURL.absoluteString, "the base URL must be absolute http(s) with a host")
        }
        var basePath = components.path
        if basePath.hasSuffix("/") { basePath.removeLast() }
        var relative = Substring(path)
        while relative.hasPrefix("/") { relative = relative.dropFirst() }
        components.path = relative.isEmpty ? (basePath.isEmpty ? "/" : basePath) : basePath + "/" + relative
        if !queryItems.isEmpty {
            var encoded = components.percentEncodedQueryItems ?? []
            for item in queryItems {
                guard let name = item.name.addingPercentEncoding(withAllowedCharacters: queryAllowed) else {
                    throw invalid(item.name, "a query name is not encodable")
                }
                let value = item.value.flatMap { $0.addingPercentEncoding(withAllowedCharacters: queryAllowed) }
                encoded.append(URLQueryItem(name: name, value: value))
            }
            components.percentEncodedQueryItems = encoded
        }
        guard let url = components.url else {
            throw invalid(path, "the path does not make a valid URL")
        }
        return url
    }

    private static func invalid(_ text: String, _ why: String) -> APIError {
        APIError(.invalidURL, underlying: "\(why): '\(text)'")
    }
}

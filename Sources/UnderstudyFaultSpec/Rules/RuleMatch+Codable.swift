extension RuleMatch: Codable {
    private enum CodingKeys: String, CodingKey {
        case method, path, headers = "header", query
    }

    /// Reads a match as the admin API answers it.
    ///
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        path = try container.decodeIfPresent(String.self, forKey: .path)
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        query = try container.decodeIfPresent([String: String].self, forKey: .query) ?? [:]
    }

    /// Writes the match as the admin API takes it, leaving out what is not set.
    ///
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(method, forKey: .method)
        try container.encodeIfPresent(path, forKey: .path)
        if !headers.isEmpty { try container.encode(headers, forKey: .headers) }
        if !query.isEmpty { try container.encode(query, forKey: .query) }
    }
}

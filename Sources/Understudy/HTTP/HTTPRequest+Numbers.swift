extension HTTPRequest {
    /// The query parameter `name` as a whole number in `range`; nil when absent; a 400 naming it otherwise
    /// (`/products/stream`'s and `/ws/feed`'s `interval` and `count`).
    func wholeNumber(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = query[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError(400, "Invalid '\(name)' - must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}

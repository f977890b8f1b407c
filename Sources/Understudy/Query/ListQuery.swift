import Foundation

/// The query DummyJSON's `cleanRequest` reads and validates on every request, whatever the route.
struct ListQuery: Sendable, Equatable {
    enum Order: Sendable, Equatable { case ascending, descending }

    /// `parseInt(limit)`; NaN when `limit=` was sent empty (which returns no items).
    var limit: Double = 30
    /// `parseInt(skip)`, echoed back as sent even when negative (NaN is echoed as `null`).
    var skip: Double = 0
    /// The search text: trimmed, lower-cased, `-` read as a space.
    var search = ""
    /// The keys to keep, `id` first, or nil for whole products.
    var select: [String]?
    var sortBy: String?
    var order: Order = .ascending
    var delayMilliseconds = 0

    static let maximumDelayMilliseconds = 5_000

    /// Validates `query` as DummyJSON does, with its exact error messages.
    static func parse(_ query: QueryParameters) throws(APIError) -> ListQuery {
        var result = ListQuery()
        if let limit = try number(query, "limit") { result.limit = limit }
        if let skip = try number(query, "skip") { result.skip = skip }

        let searches = query.values("q") + query.values("q[valueSearch]")
        if searches.count > 1 { throw APIError(400, "Invalid 'q' - must be a string") }
        if let search = searches.first {
            result.search = search.trimmingJSWhitespace().lowercased().replacingOccurrences(of: "-", with: " ")
        }

        let selected = query.values("select").flatMap { $0.split(separator: ",").map { String($0).trimmingJSWhitespace() } }
        if !query.values("select").isEmpty {
            var keys = ["id"]
            for key in selected where !key.isEmpty && !keys.contains(key) { keys.append(key) }
            result.select = keys
        }

        if let sortBy = query["sortBy"], !sortBy.isEmpty {
            result.sortBy = sortBy
            switch query["order"]?.lowercased() ?? "asc" {
            case "asc": result.order = .ascending
            case "desc": result.order = .descending
            default: throw APIError(400, "Order can be: 'asc' or 'desc'")
            }
        }

        if let delay = query["delay"], !delay.isEmpty {
            let milliseconds = JSNumber.parseInt(delay)
            if milliseconds.isNaN { throw APIError(400, "Delay must be a number in milliseconds") }
            if milliseconds > Double(maximumDelayMilliseconds) { throw APIError(400, "Delay cannot be greater than 5 seconds") }
            if milliseconds < 0 { throw APIError(400, "Delay cannot be less than 0") }
            result.delayMilliseconds = Int(milliseconds)
        }
        return result
    }

    /// `limit` and `skip`: `Number(x)` must not be NaN, then the value is `parseInt(x)`.
    private static func number(_ query: QueryParameters, _ name: String) throws(APIError) -> Double? {
        let values = query.values(name)
        guard !values.isEmpty else { return nil }
        // Express turns a repeated parameter into an array, and Number([a, b]) is NaN.
        guard values.count == 1, !JSNumber.number(values[0]).isNaN else {
            throw APIError(400, "Invalid '\(name)' - must be a number")
        }
        return JSNumber.parseInt(values[0])
    }
}

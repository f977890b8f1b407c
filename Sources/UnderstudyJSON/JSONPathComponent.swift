/// One step into a JSON document: an object key or an array index.
package enum JSONPathComponent: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    package var description: String {
        switch self {
        case .key(let key): ".\(key)"
        case .index(let index): "[\(index)]"
        }
    }
}

extension Array where Element == JSONPathComponent {
    /// A readable path such as `[12].price` (or `$` for the document itself).
    package var pathDescription: String {
        let joined = map(\.description).joined()
        return isEmpty ? "$" : joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
    }
}

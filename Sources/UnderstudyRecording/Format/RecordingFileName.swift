/// The file a request key is written to, relative to the recording's directory: `GET/products/1.json`, with
/// `~<hash>` of the query and body when it has either (`GET/products/search~1f2e3d4c.json`).
///
/// Every path segment becomes a portable file name: ASCII letters, digits, `-`, `_` and `.` stay, anything else is
/// `_`; a leading dot becomes `_` (no hidden files, no `..`); Windows' reserved device names get a `_` in front;
/// long segments are cut. Names are compared without regard to case by the writer, which numbers a second key
/// that lands on a name already taken (`GET/a_b-2.json`), so macOS's case-insensitive disks see no collision.
enum RecordingFileName {
    private static let maximumSegment = 80
    private static let reserved: Set<String> = [
        "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
        "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
    ]

    /// The name without its extension and without a collision number, e.g. `GET/products/1`.
    static func stem(for key: RequestKey) -> String {
        var segments = key.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { slug(String($0)) }
        if segments.isEmpty || segments.last == "" { segments = segments.dropLast() + ["index"] }
        segments = segments.map { $0.isEmpty ? "_" : $0 }
        if key.hasQueryOrBody { segments[segments.count - 1] += "~" + key.digest }
        return ([slug(key.method)] + segments).joined(separator: "/")
    }

    /// The relative path for a stem and a collision number (1: none).
    static func path(stem: String, number: Int) -> String {
        number <= 1 ? stem + ".json" : stem + "-\(number).json"
    }

    private static func slug(_ segment: String) -> String {
        var slug = String(segment.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": Character(scalar)
            default: "_"
            }
        })
        if slug.hasPrefix(".") { slug = "_" + slug.dropFirst() }
        if reserved.contains(slug.uppercased()) { slug = "_" + slug }
        if slug.count > maximumSegment { slug = String(slug.prefix(maximumSegment)) }
        return slug
    }
}

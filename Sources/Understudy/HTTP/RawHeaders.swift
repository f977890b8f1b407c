/// Header fields kept as one block of text (`name NUL value NUL …`): one allocation (none for a short head) and one
/// reference count however many fields there are, decoded into ``HTTPHeaders`` only when read.
///
/// The journal keeps every request's headers. As an array of `String` pairs they cost an allocation per long
/// value and a reference count per string each time an entry was built, stored and dropped; and a `[UInt8]`
/// block cost a generic array allocation (~700 instructions) per request. A `String`'s storage is not generic.
struct RawHeaders: Sendable, Equatable {
    /// The fields, each name and value followed by a NUL (neither can hold one: they come from C strings).
    let block: String
    /// How many fields there are.
    let count: Int
    /// The length of the longest value, in bytes.
    let longestValue: Int

    init(block: String, count: Int, longestValue: Int) {
        self.block = block
        self.count = count
        self.longestValue = longestValue
    }

    init() {
        self.init(block: "", count: 0, longestValue: 0)
    }

    /// The same fields as `headers`.
    init(_ headers: HTTPHeaders) {
        var block = ""
        var longest = 0
        for field in headers {
            longest = max(longest, field.value.utf8.count)
            block += field.name.filter { $0 != "\0" } + "\0" + field.value.filter { $0 != "\0" } + "\0"
        }
        self.init(block: block, count: headers.fields.count, longestValue: longest)
    }

    /// The fields, decoded.
    var decoded: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(count)
        forEachField { name, value in headers.add(String(name), String(value)) }
        return headers
    }

    /// The first value of the field `name` (compared case-insensitively), or nil. Names are compared in place,
    /// byte by byte: only the value found becomes a `String`.
    subscript(name: String) -> String? {
        var found: String?
        forEachField { fieldName, value in
            guard found == nil, fieldName.utf8.caseInsensitiveEquals(name.utf8) else { return }
            found = String(value)
        }
        return found
    }

    /// The bytes of the names and values, without separators.
    var textByteCount: Int { block.utf8.count - 2 * count }

    private func forEachField(_ body: (Substring, Substring) -> Void) {
        var rest = block[...]
        while let nameEnd = rest.utf8.firstIndex(of: 0) {
            let name = rest[..<nameEnd]
            let afterName = rest.utf8.index(after: nameEnd)
            guard let valueEnd = rest.utf8[afterName...].firstIndex(of: 0) else { return }
            body(name, rest[afterName..<valueEnd])
            rest = rest[rest.utf8.index(after: valueEnd)...]
        }
    }
}

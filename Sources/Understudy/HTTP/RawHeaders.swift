/// Header fields kept as one block of bytes (`name NUL value NUL …`): one allocation and one reference count
/// however many fields there are, decoded into ``HTTPHeaders`` only when read.
///
/// The journal keeps every request's headers; as an array of `String` pairs, each one a reference counted on the
/// event loop as the entry was built, stored and dropped, which cost the smallest replies a measurable share of
/// their time.
struct RawHeaders: Sendable, Equatable {
    /// The fields, each name and value followed by a NUL (neither can hold one: they come from C strings).
    let bytes: [UInt8]
    /// How many fields there are.
    let count: Int
    /// The length of the longest value, in bytes.
    let longestValue: Int

    init(bytes: [UInt8], count: Int, longestValue: Int) {
        self.bytes = bytes
        self.count = count
        self.longestValue = longestValue
    }

    init() {
        bytes = []
        count = 0
        longestValue = 0
    }

    /// The same fields as `headers`.
    init(_ headers: HTTPHeaders) {
        var bytes: [UInt8] = []
        var longest = 0
        for field in headers {
            longest = max(longest, field.value.utf8.count)
            bytes.append(contentsOf: field.name.utf8.filter { $0 != 0 })
            bytes.append(0)
            bytes.append(contentsOf: field.value.utf8.filter { $0 != 0 })
            bytes.append(0)
        }
        self.bytes = bytes
        count = headers.fields.count
        longestValue = longest
    }

    /// The fields, decoded.
    var decoded: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(count)
        forEachField { name, value in
            headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
        return headers
    }

    /// The first value of the field `name` (compared case-insensitively), or nil.
    subscript(name: String) -> String? {
        var found: String?
        let wanted = Array(name.utf8)
        forEachField { fieldName, value in
            guard found == nil, fieldName.count == wanted.count,
                  zip(fieldName, wanted).allSatisfy({ $0 == $1 || ($0 | 0x20 == $1 | 0x20 && ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) })
            else { return }
            found = String(decoding: value, as: UTF8.self)
        }
        return found
    }

    /// The bytes of the names and values, without separators.
    var textByteCount: Int { bytes.count - 2 * count }

    private func forEachField(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void) {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let nameEnd = bytes[start...].firstIndex(of: 0),
                  let valueEnd = bytes[(nameEnd + 1)...].firstIndex(of: 0) else { return }
            body(bytes[start..<nameEnd], bytes[(nameEnd + 1)..<valueEnd])
            start = valueEnd + 1
        }
    }
}

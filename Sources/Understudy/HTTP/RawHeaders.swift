/// Header fields kept as one block of bytes (`name NUL value NUL …`): one allocation and one reference count however
/// many fields there are, decoded into ``HTTPHeaders`` only when read.
///
/// The journal keeps every request's headers. As an array of `String` pairs they cost an allocation per long
/// value and a reference count per string each time an entry was built, stored and dropped; a `[UInt8]` block cost
/// a generic array allocation (~700 instructions) per request, and a `String` block its UTF-8 validation (~500 with
/// the allocation). The block is a non-generic tail-allocated object, filled with `memcpy`: names and values come
/// from evhttp's C strings and are decoded (invalid UTF-8 repaired) only when read.
struct RawHeaders: Sendable, Equatable {
    /// The fields, each name and value followed by a NUL (neither can hold one: they come from C strings).
    let block: Block
    /// How many fields there are.
    let count: Int
    /// The length of the longest value, in bytes.
    let longestValue: Int

    init(block: Block, count: Int, longestValue: Int) {
        self.block = block
        self.count = count
        self.longestValue = longestValue
    }

    init() {
        self.init(block: .empty, count: 0, longestValue: 0)
    }

    /// The same fields as `headers`.
    init(_ headers: HTTPHeaders) {
        var bytes: [UInt8] = []
        var longest = 0
        for field in headers {
            longest = max(longest, field.value.utf8.count)
            bytes += field.name.utf8.filter { $0 != 0 } + [0] + field.value.utf8.filter { $0 != 0 } + [0]
        }
        let block = Block.make(byteCount: bytes.count) { start in
            bytes.withUnsafeBytes { if let base = $0.baseAddress { start.copyMemory(from: base, byteCount: $0.count) } }
        }
        self.init(block: block, count: headers.fields.count, longestValue: longest)
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

    /// The first value of the field `name` (compared case-insensitively), or nil. Names are compared in place,
    /// byte by byte: only the value found becomes a `String`.
    subscript(name: String) -> String? {
        var found: String?
        forEachField { fieldName, value in
            guard found == nil, fieldName.caseInsensitiveEquals(name.utf8) else { return }
            found = String(decoding: value, as: UTF8.self)
        }
        return found
    }

    /// The bytes of the names and values, without separators.
    var textByteCount: Int { block.byteCount - 2 * count }

    static func == (left: RawHeaders, right: RawHeaders) -> Bool {
        left.count == right.count && left.block.withBytes { leftBytes in
            right.block.withBytes { leftBytes.elementsEqual($0) }
        }
    }

    private func forEachField(_ body: (UnsafeRawBufferPointer.SubSequence, UnsafeRawBufferPointer.SubSequence) -> Void) {
        block.withBytes { bytes in
            var start = bytes.startIndex
            while let nameEnd = bytes[start...].firstIndex(of: 0) {
                let valueStart = nameEnd + 1
                guard let valueEnd = bytes[valueStart...].firstIndex(of: 0) else { return }
                body(bytes[start..<nameEnd], bytes[valueStart..<valueEnd])
                start = valueEnd + 1
            }
        }
    }
}

extension RawHeaders {
    /// The bytes of a block of fields, in one allocation with the object that counts references to them.
    ///
    /// `@unchecked Sendable` (`ManagedBuffer` is never `Sendable` by itself): the bytes are written once, in `make`,
    /// before the block is shared, and only read after.
    struct Block: @unchecked Sendable {
        private final class Storage: ManagedBuffer<Int, UInt8> {}
        private let storage: Storage

        /// A block of `byteCount` bytes, written by `fill` (given their start) before it is returned.
        static func make(byteCount: Int, fill: (UnsafeMutableRawPointer) -> Void) -> Block {
            let buffer = Storage.create(minimumCapacity: byteCount) { _ in byteCount }
            buffer.withUnsafeMutablePointerToElements { fill(UnsafeMutableRawPointer($0)) }
            return Block(storage: unsafeDowncast(buffer, to: Storage.self))
        }

        /// The block with no fields.
        static let empty = Block.make(byteCount: 0) { _ in }

        /// How many bytes the block holds.
        var byteCount: Int { storage.header }

        /// Calls `body` with the bytes, valid only inside it.
        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            storage.withUnsafeMutablePointerToElements { body(UnsafeRawBufferPointer(start: $0, count: storage.header)) }
        }
    }
}

import Foundation

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
        var longest = 0
        var capacity = 0
        for field in headers {
            longest = max(longest, field.value.utf8.count)
            capacity += field.name.utf8.count + field.value.utf8.count + 2
        }
        let block = Block.make(capacity: capacity) { start in
            var end = 0
            for field in headers {
                end = RawHeaders.append(field.name, to: start, at: end)
                end = RawHeaders.append(field.value, to: start, at: end)
            }
            return end
        }
        self.init(block: block, count: headers.fields.count, longestValue: longest)
    }

    /// Copies `text`'s UTF-8 to `start + offset` without its NULs (the block's separator), then a NUL; returns the
    /// offset after it. Runs between NULs are found with `memchr` and copied whole: a journal entry's header values
    /// can be kilobytes long.
    private static func append(_ text: String, to start: UnsafeMutableRawPointer, at offset: Int) -> Int {
        var text = text
        return text.withUTF8 { utf8 in
            var end = offset
            var rest = UnsafeRawBufferPointer(utf8)
            while let base = rest.baseAddress, !rest.isEmpty {
                let run = memchr(base, 0, rest.count).map { UnsafeRawPointer($0) - base } ?? rest.count
                (start + end).copyMemory(from: base, byteCount: run)
                end += run
                rest = UnsafeRawBufferPointer(rebasing: rest[Swift.min(run + 1, rest.count)...])
            }
            start.storeBytes(of: 0, toByteOffset: end, as: UInt8.self)
            return end + 1
        }
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
            right.block.withBytes { rightBytes in
                guard leftBytes.count == rightBytes.count else { return false }
                guard let leftBase = leftBytes.baseAddress, let rightBase = rightBytes.baseAddress else { return true }
                return memcmp(leftBase, rightBase, leftBytes.count) == 0
            }
        }
    }

    /// Calls `body` with each field's name and value, in order. The NULs are found with `memchr`: values can be
    /// kilobytes long.
    private func forEachField(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void) {
        block.withBytes { bytes in
            guard var start = bytes.baseAddress else { return }
            let end = start + bytes.count
            func nextNUL(from position: UnsafeRawPointer) -> UnsafeRawPointer? {
                memchr(position, 0, end - position).map { UnsafeRawPointer($0) }
            }
            while start < end, let nameEnd = nextNUL(from: start) {
                let valueStart = nameEnd + 1
                guard valueStart <= end, let valueEnd = nextNUL(from: valueStart) else { return }
                body(UnsafeRawBufferPointer(start: start, count: nameEnd - start),
                     UnsafeRawBufferPointer(start: valueStart, count: valueEnd - valueStart))
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

        /// A block of at most `capacity` bytes, written by `fill` (given their start, returning how many it wrote)
        /// before it is returned.
        static func make(capacity: Int, fill: (UnsafeMutableRawPointer) -> Int) -> Block {
            let buffer = Storage.create(minimumCapacity: capacity) { _ in 0 }
            let written = buffer.withUnsafeMutablePointerToElements { fill(UnsafeMutableRawPointer($0)) }
            precondition(written <= capacity, "a header block was written past its capacity")
            buffer.header = written
            return Block(storage: unsafeDowncast(buffer, to: Storage.self))
        }

        /// The block with no fields.
        static let empty = Block.make(capacity: 0) { _ in 0 }

        /// How many bytes the block holds.
        var byteCount: Int { storage.header }

        /// Calls `body` with the bytes, valid only inside it.
        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            storage.withUnsafeMutablePointerToElements { body(UnsafeRawBufferPointer(start: $0, count: storage.header)) }
        }
    }
}

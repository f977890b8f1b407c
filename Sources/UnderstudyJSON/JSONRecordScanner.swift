/// Reads a JSON array of objects in one pass without building values: each element comes out as its compact text.
///
/// A fixture file of 100,000 products is 160 MB; parsing it into `JSONValue`s took seconds and a gigabyte. The
/// scanner only checks the grammar and drops the whitespace between tokens, so the catalogue keeps each record as
/// the bytes it serves. It declines (returns nil for) anything it is not sure of, and the caller then parses the
/// document in full, which also finds the precise error: one strict parser decides what is valid.
package enum JSONRecordScanner {
    /// Where one top-level member of a record sits in its compact text: the key inside its quotes, and the value.
    /// Offsets are 32-bit: a record's text is far below 4 GiB, and a 160 MB file has millions of members.
    package struct Member: Sendable {
        private let keyStart, keyEnd, valueStart, valueEnd: UInt32

        /// The key, inside its quotes.
        package var key: Range<Int> { Int(keyStart)..<Int(keyEnd) }
        /// The value.
        package var value: Range<Int> { Int(valueStart)..<Int(valueEnd) }

        package init(key: Range<Int>, value: Range<Int>) {
            keyStart = UInt32(truncatingIfNeeded: key.lowerBound)
            keyEnd = UInt32(truncatingIfNeeded: key.upperBound)
            valueStart = UInt32(truncatingIfNeeded: value.lowerBound)
            valueEnd = UInt32(truncatingIfNeeded: value.upperBound)
        }
    }

    /// One element of the array: its compact text, where its members are in the document's list, and whether the
    /// text is already exactly what `JSONWriter` writes for it (true unless a number or string is written in a form
    /// `JSON.stringify` would not write, such as `1.0`, `1e3`, `\u00e9` or `\/`, or a string holds non-ASCII bytes
    /// the scanner has not validated).
    package struct Record {
        /// Valid only inside `use` of `scan`: it points into the input, or into the scanner's copy without whitespace.
        package let text: UnsafeBufferPointer<UInt8>
        /// Where the record was read in the input, whitespace and all: never shorter than `text`.
        package let source: Range<Int>
        package let members: Range<Int>
        package let canonical: Bool
    }

    /// Reads every element and hands them to `use`, with every record's top-level members in one list.
    ///
    /// The array is the document itself, or the array under `wrapperKey` in a top-level object (DummyJSON's list
    /// wrapper, as `curl …/products?limit=0` saves it).
    /// - Returns: what `use` returns, or nil when the document is invalid, is not an array of objects, or names
    ///   the wrapper key twice or not at all.
    package static func scan<Result>(
        _ bytes: [UInt8], wrapperKey: String, _ use: (_ records: [Record], _ members: [Member]) -> Result?
    ) -> Result? {
        bytes.withUnsafeBufferPointer { scan($0, wrapperKey: wrapperKey, use) }
    }

    /// Reads every element of the text at `input`, which must stay unchanged until `use` returns.
    package static func scan<Result>(
        _ input: UnsafeBufferPointer<UInt8>, wrapperKey: String, _ use: (_ records: [Record], _ members: [Member]) -> Result?
    ) -> Result? {
        let wrapper = JSONWriter.encode(.string(wrapperKey))
        // The copy without whitespace is never longer than the input; only records holding whitespace are copied.
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: max(input.count, 1))
        defer { scratch.deallocate() }
        var cursor = JSONRecordCursor(input: input, out: scratch)
        // Capacity is only address space until written: reserving it saves growing (and copying) the lists.
        cursor.members.reserveCapacity(input.count / 16)
        cursor.records.reserveCapacity(input.count / 256)
        guard cursor.document(wrapper: wrapper) else { return nil }
        return use(cursor.records, cursor.members)
    }
}

import Foundation
import UnderstudyJSON

/// The fast path of loading: records read by `JSONRecordScanner` and checked on their compact text, without
/// parsing the document into values, which for 100,000 products took ~5 s and 1.3 GiB (now ~0.5 s and the file's
/// size: the records are served from the file's bytes as read).
///
/// Each function returns nil for a file it does not take, or one that fails a check; the caller then loads it by
/// the full parse, which applies the same checks and reports the first problem with its line and column. So the
/// messages, and what is accepted, stay those of one implementation.
extension FixtureLoader {
    static func scannedProducts(from text: RecordArena) -> Products? {
        JSONRecordScanner.scan(text.bytes, wrapperKey: "products") { records, members in
            guard let prepared = prepare(records, members, in: text, { text, members -> (String, (Int, String))? in
                var checked = ProductMembers()
                guard checked.read(text, members), let id = checked.id, checked.hasTitle, let category = checked.category else {
                    return nil
                }
                return (String(id), (id, category))
            }) else { return nil }
            return (prepared.map { PreparedRecord(encoded: $0.encoded, idText: $0.idText, integerID: $0.detail.0) },
                    prepared.map(\.detail.1))
        }
    }

    static func scannedCollection(named name: String, from text: RecordArena) -> [PreparedRecord]? {
        JSONRecordScanner.scan(text.bytes, wrapperKey: name) { records, members in
            prepare(records, members, in: text) { text, members -> (String, Int?)? in
                guard let range = members.last(where: { text.holds($0.key, "id") })?.value else { return nil }
                if let integer = integer(in: text, range) { return (String(integer), integer) }
                guard let string = CompactJSON.string(in: text, range), !string.isEmpty else { return nil }
                return (string, nil)
            }?.map { PreparedRecord(encoded: $0.encoded, idText: $0.idText, integerID: $0.detail) }
        }
    }

    /// Each record's text as the writer writes it, read by `check` (nil: the record fails a check), on every core:
    /// checking 100,000 records is half of the start-up the scan leaves. Nil when a record fails or an id repeats.
    ///
    /// A record's text is its span of `file` (what the scanner read), so a record written without whitespace is
    /// served from the bytes as read. One the scanner copied to drop whitespace is moved back into its span, which
    /// is never shorter, once every record has passed: until then the file is as read, for the parse's message.
    private static func prepare<Detail: Sendable>(
        _ records: [JSONRecordScanner.Record], _ members: [JSONRecordScanner.Member], in file: RecordArena,
        _ check: @escaping @Sendable (UnsafeBufferPointer<UInt8>, ArraySlice<JSONRecordScanner.Member>) -> (idText: String, detail: Detail)?
    ) -> [(idText: String, encoded: SharedBytes, detail: Detail)]? {
        var prepared = [(idText: String, encoded: SharedBytes, detail: Detail)?](repeating: nil, count: records.count)
        let count = records.count
        let chunks = min(count, 8)
        prepared.withUnsafeMutableBufferPointer { slots in
            let work = ChunkedWork(records: records, members: members, slots: slots)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                for index in count * chunk / chunks..<count * (chunk + 1) / chunks {
                    let record = work.records[index]
                    let encoded: SharedBytes
                    let checked: (idText: String, detail: Detail)?
                    if record.canonical {
                        checked = check(record.text, work.members[record.members])
                        encoded = SharedBytes(borrowing: file.base + record.source.lowerBound, count: record.text.count, from: file)
                    } else {
                        // A number or string written another way: parsed and written again.
                        guard let value = try? JSONParser.parse(Array(record.text)) else { continue }
                        encoded = SharedBytes(JSONWriter.encode(value))
                        checked = encoded.withText { check($0, CompactJSON.members(of: $0)[...]) }
                    }
                    guard let checked else { continue }
                    work.slots[index] = (checked.idText, encoded, checked.detail)
                }
            }
        }
        let complete = prepared.compactMap { $0 }
        var seenIDs: Set<String> = []
        seenIDs.reserveCapacity(complete.count)
        guard complete.count == records.count, complete.allSatisfy({ seenIDs.insert($0.idText).inserted }) else {
            return nil
        }
        for record in records where record.canonical {
            let span = file.base + record.source.lowerBound
            if let text = record.text.baseAddress, UnsafeRawPointer(text) != UnsafeRawPointer(span) {
                span.copyMemory(from: text, byteCount: record.text.count)
            }
        }
        return complete
    }

    /// An integer written in canonical text (at most 15 digits, so `Int` and `JSONNumber.exactInt` agree).
    fileprivate static func integer(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var digits = range
        if text[range.lowerBound] == UInt8(ascii: "-") { digits = range.lowerBound + 1..<range.upperBound }
        guard !digits.isEmpty, digits.count <= 15,
              text[digits].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self))
    }
}

/// The members of one product the checks read; `read` fails on any value of the wrong type, as `products(from:)`
/// would (its message then comes from there).
private struct ProductMembers {
    var id: Int?
    var hasTitle = false
    var category: String?

    mutating func read(_ text: UnsafeBufferPointer<UInt8>, _ members: ArraySlice<JSONRecordScanner.Member>) -> Bool {
        // A repeated key is checked each time; the last one is the value kept, as the parser keeps it.
        for member in members {
            let key = member.key
            let value = member.value
            let first = text[value.lowerBound]
            let valid: Bool
            if text.holds(key, "id") {
                id = FixtureLoader.integer(in: text, value)
                valid = id != nil
            } else if text.holds(key, "category") {
                category = CompactJSON.string(in: text, value)
                valid = category != nil
            } else if text.holds(key, "title") {
                valid = first == UInt8(ascii: "\"")
                hasTitle = valid
            } else if text.holds(key, "description") || text.holds(key, "brand") || text.holds(key, "sku") || text.holds(key, "thumbnail")
                        || text.holds(key, "availabilityStatus") {
                valid = first == UInt8(ascii: "\"")
            } else if text.holds(key, "price") || text.holds(key, "discountPercentage") || text.holds(key, "rating") {
                valid = first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
            } else if text.holds(key, "stock") || text.holds(key, "minimumOrderQuantity") {
                valid = FixtureLoader.integer(in: text, value) != nil
            } else if text.holds(key, "tags") || text.holds(key, "images") {
                valid = Self.isArrayOfStrings(text, value)
            } else {
                valid = true
            }
            guard valid else { return false }
        }
        return true
    }

    private static func isArrayOfStrings(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard text[range.lowerBound] == UInt8(ascii: "[") else { return false }
        var index = range.lowerBound + 1
        if text[index] == UInt8(ascii: "]") { return index + 1 == range.upperBound }
        while index < range.upperBound, text[index] == UInt8(ascii: "\"") {
            index = CompactJSON.endOfString(text, from: index)
            if text[index] == UInt8(ascii: "]") { return index + 1 == range.upperBound }
            guard text[index] == UInt8(ascii: ",") else { return false }
            index += 1
        }
        return false
    }
}

/// What the chunks of `prepare` share. Unchecked because of the pointers, which are safe here: the records' texts
/// and the slots outlive `concurrentPerform`, which returns only when every chunk has, the records are only read,
/// and each chunk writes its own range of slots.
private struct ChunkedWork<Slot>: @unchecked Sendable {
    let records: [JSONRecordScanner.Record]
    let members: [JSONRecordScanner.Member]
    let slots: UnsafeMutableBufferPointer<Slot>
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes at `range` are exactly `word`.
    @inline(__always)
    func holds(_ range: Range<Int>, _ word: StaticString) -> Bool {
        range.count == word.utf8CodeUnitCount
            && memcmp(baseAddress! + range.lowerBound, word.utf8Start, range.count) == 0
    }
}

extension SharedBytes {
    /// The bytes as a typed buffer, valid inside `body`.
    func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count))
    }
}

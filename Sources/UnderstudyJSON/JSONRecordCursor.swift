/// The scanner's position in the input and in the compact output, and what it has read.
struct JSONRecordCursor {
    let input: UnsafeBufferPointer<UInt8>
    let out: UnsafeMutablePointer<UInt8>
    var index = 0
    /// The output is the input less its whitespace: runs of input between gaps are copied when a gap is skipped,
    /// so a record written without whitespace is handed over as the input itself, uncopied.
    var written = 0
    var runStart = 0
    var canonical = true
    var depth = 0
    /// Every record read, and every record's members (depth 1), for the caller.
    var records: [JSONRecordScanner.Record] = []
    /// Where the current record's copy starts in the output: member offsets are relative to its text.
    var recordBase = 0
    var members: [JSONRecordScanner.Member] = []

    init(input: UnsafeBufferPointer<UInt8>, out: UnsafeMutablePointer<UInt8>) {
        self.input = input
        self.out = out
        // A UTF-8 byte-order mark may precede the text, as the parser allows.
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { index = 3 }
    }

    mutating func document(wrapper: [UInt8]) -> Bool {
        skipWhitespace()
        guard index < input.count else { return false }
        if input[index] == UInt8(ascii: "[") {
            guard readRecords() else { return false }
        } else if input[index] == UInt8(ascii: "{") {
            guard wrapped(wrapper: wrapper) else { return false }
        } else {
            return false
        }
        skipWhitespace()
        return index == input.count
    }

    /// `{…, "<wrapper>": [records], …}`: the wrapper's array is read as records, every other member checked.
    private mutating func wrapped(wrapper: [UInt8]) -> Bool {
        index += 1
        skipWhitespace()
        var found = false
        if peek(UInt8(ascii: "}")) { return false }
        while true {
            skipWhitespace()
            let keyStart = index
            guard peek(UInt8(ascii: "\"")), string() else { return false }
            let isWrapper = UnsafeBufferPointer(rebasing: input[keyStart..<index]).elementsEqual(wrapper)
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { return false }
            index += 1
            skipWhitespace()
            if isWrapper {
                // The parser keeps the last of repeated keys; the parse decides such a file.
                guard !found, peek(UInt8(ascii: "[")), readRecords() else { return false }
                found = true
            } else {
                guard value() else { return false }
            }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            guard peek(UInt8(ascii: "}")) else { return false }
            index += 1
            return found
        }
    }

    private mutating func readRecords() -> Bool {
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return true }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "{")) else { return false }
            // Each record's copy starts where the last one ended, so every text stays valid to the end.
            let recordStart = index
            let recordOut = written
            runStart = index
            canonical = true
            let firstMember = members.count
            recordBase = recordOut
            guard object(), index - recordStart < Int(UInt32.max) else { return false }
            let text: UnsafeBufferPointer<UInt8>
            if written == recordOut {
                text = UnsafeBufferPointer(rebasing: input[recordStart..<index])
                // Handed over as the input: the gap after it must not copy it to the output (for a file of one
                // record a line, that copied the whole file).
                runStart = index
            } else {
                text = UnsafeBufferPointer(rebasing: flush(upTo: index)[recordOut...])
            }
            records.append(JSONRecordScanner.Record(text: text, source: recordStart..<index,
                                                    members: firstMember..<members.count, canonical: canonical))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            guard peek(UInt8(ascii: "]")) else { return false }
            index += 1
            return true
        }
    }

    private mutating func value() -> Bool {
        guard index < input.count else { return false }
        switch input[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return false
        }
    }

    private mutating func object() -> Bool {
        // The parser's limit is 512 levels; stopping short of it leaves the decision (and its message) to the parser.
        depth += 1
        defer { depth -= 1 }
        guard depth < 500 else { return false }
        let isRecord = depth == 1
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return true }
        while true {
            skipWhitespace()
            let keyStart = position
            guard peek(UInt8(ascii: "\"")), string() else { return false }
            let keyEnd = position
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { return false }
            index += 1
            skipWhitespace()
            let valueStart = position
            guard value() else { return false }
            if isRecord {
                members.append(JSONRecordScanner.Member(key: keyStart + 1 - recordBase..<keyEnd - 1 - recordBase,
                                                        value: valueStart - recordBase..<position - recordBase))
            }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            guard peek(UInt8(ascii: "}")) else { return false }
            index += 1
            return true
        }
    }

    private mutating func array() -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth < 500 else { return false }
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return true }
        while true {
            skipWhitespace()
            guard value() else { return false }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            guard peek(UInt8(ascii: "]")) else { return false }
            index += 1
            return true
        }
    }

    /// A string: its text needs no change to be compact.
    private mutating func string() -> Bool {
        index += 1
        skipPlainRun()
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return true
            }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < input.count else { return false }
                switch input[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                     UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "/"), UInt8(ascii: "u"):
                    // Valid, but the writer would write the character itself; the parser checks the hex digits.
                    canonical = false
                default:
                    return false
                }
                index += 2
                continue
            }
            if byte < 0x20 { return false }
            if byte >= 0x80 { canonical = false }
            index += 1
        }
        return false
    }

    /// A number, checked against JSON's grammar. It is canonical when `JSONNumber` would keep its text: no
    /// exponent, at most 15 digits (so the text is the value's exact decimal), not `-0`, no trailing fractional 0.
    private mutating func number() -> Bool {
        let start = index
        var digits = 0
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < input.count, isDigit(input[index]) else { return false }
        let leadingZero = input[index] == UInt8(ascii: "0")
        index += 1
        digits += 1
        if !leadingZero {
            while index < input.count, isDigit(input[index]) { index += 1; digits += 1 }
        }
        var fraction = false
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < input.count, isDigit(input[index]) else { return false }
            while index < input.count, isDigit(input[index]) { index += 1; digits += 1 }
            fraction = true
        }
        var exponent = false
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < input.count, isDigit(input[index]) else { return false }
            while index < input.count, isDigit(input[index]) { index += 1 }
            exponent = true
        }
        let negativeZero = input[start] == UInt8(ascii: "-") && leadingZero && !fraction
        if exponent || digits > 15 || negativeZero || (fraction && input[index - 1] == UInt8(ascii: "0")) {
            canonical = false
        }
        return true
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= input.count,
              UnsafeBufferPointer(rebasing: input[index..<index + count])
                  .elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count)) else {
            return false
        }
        index += count
        return true
    }

    /// Skips eight bytes at a time while none of them is a quote, a backslash, a control byte or non-ASCII: most of
    /// a fixture is the plain text of strings, and this is most of the scanner's time.
    private mutating func skipPlainRun() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let base = UnsafeRawPointer(input.baseAddress!)
        while index + 8 <= input.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            // A byte is zero (or below 0x20) exactly when subtracting leaves its high bit set and the byte's own
            // high bit was clear; non-ASCII bytes are caught by their own high bit.
            let special = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                | ((word &- ones &* 0x20) & ~word) | word
            if special & highs != 0 { return }
            index += 8
        }
    }

    /// Where the output stands: what was copied, and the run not yet copied.
    private var position: Int { written + index - runStart }

    /// Copies the run up to `end` to the output, and returns the output so far.
    @discardableResult
    private mutating func flush(upTo end: Int) -> UnsafeBufferPointer<UInt8> {
        let count = end - runStart
        if count > 0 { (out + written).update(from: input.baseAddress! + runStart, count: count) }
        written += count
        runStart = end
        return UnsafeBufferPointer(start: out, count: written)
    }

    private mutating func skipWhitespace() {
        let gap = index
        while index < input.count {
            switch input[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default:
                if index != gap {
                    flush(upTo: gap)
                    runStart = index
                }
                return
            }
        }
        if index != gap {
            flush(upTo: gap)
            runStart = index
        }
    }
    private func peek(_ byte: UInt8) -> Bool {
        index < input.count && input[index] == byte
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

/// An immutable byte buffer that evhttp can send by reference, without copying it into each reply.
///
/// `@unchecked Sendable`: the buffer is written once in `init` and only read afterwards, so sharing it
/// between event-loop threads is safe; evbuffer holds a retain on it until the bytes are on the wire.
final class SharedBytes: @unchecked Sendable {
    /// The start of the bytes.
    let base: UnsafeMutableRawPointer
    /// The number of bytes.
    let count: Int
    /// What owns the bytes when they are part of a larger buffer (a catalogue's records share one); nil when this
    /// object allocated them.
    private let owner: (any Sendable & AnyObject)?

    /// Bytes that are part of a buffer `owner` keeps alive and never changes.
    init(borrowing base: UnsafeMutableRawPointer, count: Int, from owner: any Sendable & AnyObject) {
        self.base = base
        self.count = count
        self.owner = owner
    }

    /// A buffer holding a copy of `bytes`.
    init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        owner = nil
        count = bytes.count
        base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { [base] contiguous in
            if let source = contiguous.baseAddress { base.copyMemory(from: source, byteCount: contiguous.count) }
        }
        guard copied == nil else { return }
        var offset = 0
        for byte in bytes {
            base.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }
    }

    deinit {
        if owner == nil { base.deallocate() }
    }

    /// The bytes, valid while this object is alive.
    var buffer: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: count)
    }

    /// A copy of the bytes.
    var bytes: [UInt8] {
        Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The bytes decoded as UTF-8 text.
    var text: String {
        String(decoding: UnsafeRawBufferPointer(start: base, count: count), as: UTF8.self)
    }
}

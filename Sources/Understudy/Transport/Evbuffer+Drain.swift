import CLibevent

/// Moves all of `input`'s bytes onto the end of `bytes`, in one copy, into the storage `bytes` has when it is large
/// enough: what a connection's read callback does with what arrived (a taken-over client's, a relayed socket's
/// upstream).
func drainEvbuffer(_ input: OpaquePointer, into bytes: inout [UInt8]) {
    let count = evbuffer_get_length(input)
    guard count > 0 else { return }
    if bytes.isEmpty, bytes.capacity < count {
        // Storage too small (a first read, or one larger than the last): copied straight into new storage, not
        // zeroed first.
        bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = max(0, Int(evbuffer_remove(input, buffer.baseAddress, count)))
        }
        return
    }
    // Made contiguous (a read's bytes usually are already), copied onto the end, then let go of.
    guard let start = evbuffer_pullup(input, count) else { return }
    bytes.append(contentsOf: UnsafeRawBufferPointer(start: start, count: count))
    evbuffer_drain(input, count)
}

/// The most storage a connection's read bytes keep once they are taken: a socket's reads then land in the same
/// bytes each time (no allocation per message), and a large read's storage is not held while the socket idles.
let keptReadCapacity = 4 << 10

/// What a connection read has been taken (its reader copied it): emptied, keeping its storage up to
/// `keptReadCapacity`.
func readTaken(_ bytes: inout [UInt8]) {
    guard !bytes.isEmpty else { return }
    if bytes.capacity <= keptReadCapacity {
        bytes.removeAll(keepingCapacity: true)
    } else {
        bytes = []
    }
}

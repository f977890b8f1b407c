import UnderstudyJSON

/// A reply to send: status, headers and a body that is either owned bytes or a shared, pre-encoded buffer.
struct HTTPResponse: Sendable {
    /// What goes after the headers.
    enum Body: Sendable {
        case empty
        case bytes([UInt8])
        case shared(SharedBytes)

        var count: Int {
            switch self {
            case .empty: 0
            case .bytes(let bytes): bytes.count
            case .shared(let shared): shared.count
            }
        }
    }

    var status: Int
    var headers: HTTPHeaders
    var body: Body
    /// A weak entity tag for conditional GETs, when the body is worth one.
    var etag: String?

    init(status: Int, headers: HTTPHeaders = [:], body: Body = .empty, etag: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.etag = etag
    }

    static let jsonContentType = "application/json; charset=utf-8"

    /// A JSON reply.
    static func json(_ bytes: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": jsonContentType], body: .bytes(bytes))
    }

    /// A JSON reply from a shared buffer.
    static func json(_ shared: SharedBytes, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": jsonContentType], body: .shared(shared))
    }

    /// DummyJSON's error shape: `{"message": "…"}`.
    static func message(_ message: String, status: Int) -> HTTPResponse {
        var writer = JSONWriter(reservingCapacity: message.utf8.count + 16)
        writer.writeRaw("{\"message\":")
        writer.write(string: message)
        writer.writeRaw("}")
        return json(writer.bytes, status: status)
    }

    /// A weak ETag in Express's `W/"<length>-<hash>"` form (a 64-bit content hash instead of Express's SHA-1).
    static func weakETag(for body: SharedBytes) -> String {
        let hash = withExtendedLifetime(body) { contentHash(body.buffer) }
        return "W/\"\(String(body.count, radix: 16))-\(String(hash, radix: 36))\""
    }

    /// The same tag for bytes not yet shared.
    static func weakETag(for bytes: [UInt8]) -> String {
        let hash = bytes.withUnsafeBytes { contentHash($0) }
        return "W/\"\(String(bytes.count, radix: 16))-\(String(hash, radix: 36))\""
    }

    /// A hash of the bytes taken eight at a time: every uncached list reply is hashed, and byte-at-a-time FNV-1a
    /// spent a serial multiply per byte (~50 µs on a 40 KB page). Each step folds the high bits back down, so a
    /// change anywhere reaches every later bit; the splitmix64 finaliser spreads the last word.
    static func contentHash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(raw.count)
        var offset = 0
        while offset + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            hash ^= hash >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        for shift in 0..<(raw.count - offset) {
            tail |= UInt64(raw[offset + shift]) << (8 * UInt64(shift))
        }
        hash = (hash ^ tail) &* multiplier
        hash ^= hash >> 30
        hash &*= 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 27
        hash &*= 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }
}

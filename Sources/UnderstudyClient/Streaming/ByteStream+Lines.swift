import Foundation

extension ByteStream {
    /// The body as text lines, split at LF, CRLF or a lone CR (even across chunks), without the terminators.
    ///
    /// A last line without a terminator is still delivered. Bytes are decoded as UTF-8 per line, so a character
    /// split across chunks decodes intact; invalid bytes become U+FFFD.
    public var lines: Lines {
        Lines(base: self)
    }

    /// An `AsyncSequence` of the lines of a ``ByteStream``.
    public struct Lines: AsyncSequence, Sendable {
        /// One line.
        public typealias Element = String

        let base: ByteStream

        /// Creates the iterator.
        public func makeAsyncIterator() -> Iterator {
            Iterator(bytes: base.makeAsyncIterator())
        }

        /// Reads chunks and cuts them into lines; every error it throws is an ``APIError``.
        public struct Iterator: AsyncIteratorProtocol {
            var bytes: ByteStream.Iterator
            var line: [UInt8] = []
            var ready: [String] = []
            var afterCR = false
            var ended = false

            /// The next line, or nil at the end of the body.
            public mutating func next() async throws -> String? {
                while ready.isEmpty {
                    if ended { return nil }
                    guard let chunk = try await bytes.next() else {
                        ended = true
                        if !line.isEmpty { ready.append(String(decoding: line, as: UTF8.self)) }
                        line = []
                        break
                    }
                    split(chunk)
                }
                return ready.isEmpty ? nil : ready.removeFirst()
            }

            private mutating func split(_ chunk: Data) {
                for byte in chunk {
                    if afterCR {
                        afterCR = false
                        if byte == 0x0A { continue }
                    }
                    if byte == 0x0A || byte == 0x0D {
                        afterCR = byte == 0x0D
                        ready.append(String(decoding: line, as: UTF8.self))
                        line.removeAll(keepingCapacity: true)
                    } else {
                        line.append(byte)
                    }
                }
            }
        }
    }
}

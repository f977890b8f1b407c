import CLibevent
import Foundation

extension RawHeaders {
    /// Copies evhttp's header list in one allocation.
    init(_ list: UnsafeMutablePointer<evkeyvalq>) {
        var total = 0
        var fields = 0
        var longest = 0
        var field = list.pointee.tqh_first
        while let current = field {
            if let key = current.pointee.key, let value = current.pointee.value {
                let valueLength = strlen(value)
                longest = max(longest, valueLength)
                total += strlen(key) + valueLength + 2
                fields += 1
            }
            field = current.pointee.next.tqe_next
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var offset = 0
            func append(_ text: UnsafeMutablePointer<CChar>) {
                let length = strlen(text)
                UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(from: text, byteCount: length)
                buffer[offset + length] = 0
                offset += length + 1
            }
            var field = list.pointee.tqh_first
            while let current = field {
                if let key = current.pointee.key, let value = current.pointee.value {
                    append(key)
                    append(value)
                }
                field = current.pointee.next.tqe_next
            }
            initialized = offset
        }
        self.init(bytes: bytes, count: fields, longestValue: longest)
    }
}

import CLibevent
import Foundation

extension RawHeaders {
    /// Copies evhttp's header list in one allocation (none when it is short).
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
        let block = String(unsafeUninitializedCapacity: total) { buffer in
            var offset = 0
            var field = list.pointee.tqh_first
            while let current = field {
                if let key = current.pointee.key, let value = current.pointee.value {
                    let keyLength = strlen(key)
                    UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(from: key, byteCount: keyLength)
                    buffer[offset + keyLength] = 0
                    offset += keyLength + 1
                    let valueLength = strlen(value)
                    UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(from: value, byteCount: valueLength)
                    buffer[offset + valueLength] = 0
                    offset += valueLength + 1
                }
                field = current.pointee.next.tqe_next
            }
            return offset
        }
        self.init(block: block, count: fields, longestValue: longest)
    }
}

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
        // Zero-filled then overwritten: the specialised allocation is cheaper than the generic uninitialised one.
        var bytes = [UInt8](repeating: 0, count: total)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            var field = list.pointee.tqh_first
            while let current = field {
                if let key = current.pointee.key, let value = current.pointee.value {
                    let keyLength = strlen(key)
                    (buffer.baseAddress! + offset).copyMemory(from: key, byteCount: keyLength)
                    offset += keyLength + 1
                    let valueLength = strlen(value)
                    (buffer.baseAddress! + offset).copyMemory(from: value, byteCount: valueLength)
                    offset += valueLength + 1
                }
                field = current.pointee.next.tqe_next
            }
        }
        self.init(bytes: bytes, count: fields, longestValue: longest)
    }
}

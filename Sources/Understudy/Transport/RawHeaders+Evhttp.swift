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
        let block = Block.make(capacity: total) { start in
            var offset = 0
            var field = list.pointee.tqh_first
            while let current = field {
                if let key = current.pointee.key, let value = current.pointee.value {
                    // Each C string is copied with its NUL, which is the block's separator.
                    let keyLength = strlen(key) + 1
                    (start + offset).copyMemory(from: key, byteCount: keyLength)
                    offset += keyLength
                    let valueLength = strlen(value) + 1
                    (start + offset).copyMemory(from: value, byteCount: valueLength)
                    offset += valueLength
                }
                field = current.pointee.next.tqe_next
            }
            return offset
        }
        self.init(block: block, count: fields, longestValue: longest)
    }
}

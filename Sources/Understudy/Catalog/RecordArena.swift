import Foundation

/// One allocation holding the text of every record of a file, which their `SharedBytes` borrow from.
///
/// 100,000 products as 100,000 allocations cost a `malloc` each and a page fault every few records at start-up;
/// one buffer is one allocation, and on Linux it asks for transparent huge pages, which take 512 times fewer
/// faults to fill (where the system allows them only on request, as Debian does).
final class RecordArena: Sendable {
    /// Unchecked, as a raw pointer must be: the bytes are written only while a file is loaded, before any server
    /// shares the catalogue, and only read after that.
    nonisolated(unsafe) let base: UnsafeMutableRawPointer
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
        RecordArena.preferHugePages(base, self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Asks for huge pages for the 2 MiB-aligned part of a large buffer (`malloc` maps large blocks on their own).
    static func preferHugePages(_ pointer: UnsafeMutableRawPointer, _ count: Int) {
        #if os(Linux)
        let huge = 2 << 20
        guard count >= 2 * huge else { return }
        let address = Int(bitPattern: pointer)
        let start = (address + huge - 1) & ~(huge - 1)
        let end = (address + count) & ~(huge - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        #endif
    }
}

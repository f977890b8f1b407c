import Foundation
import UnderstudyLocking

/// A fixture file's bytes in one allocation, which its records' `SharedBytes` borrow from once it is loaded.
///
/// Records stay where the file has them: one written without whitespace is served from the bytes as read, one
/// with whitespace is compacted within its own span. 100,000 products as 100,000 allocations cost a `malloc` each
/// and a page fault every few records at start-up, and a second buffer for the compact text was 160 MB more for
/// the kernel to zero: on a VM that was a third of the start-up. On Linux the buffer asks for transparent huge
/// pages, which take 512 times fewer faults to fill (where the system allows them only on request, as Debian does).
final class RecordArena: Sendable {
    /// Unchecked, as a raw pointer must be: the bytes are written only while a file is loaded, before any server
    /// shares the catalogue, and only read after that.
    nonisolated(unsafe) let base: UnsafeMutableRawPointer
    /// How many bytes the file has.
    let count: Int

    /// A copy of `bytes` (a text given in memory rather than read from a file, such as the embedded fixtures).
    init(copying bytes: some Collection<UInt8>) {
        count = bytes.count
        let base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        RecordArena.preferHugePages(base, count)
        UnsafeMutableRawBufferPointer(start: base, count: count).copyBytes(from: bytes)
        self.base = base
    }

    /// The first `size` bytes of the open file `descriptor` (fewer if it ends sooner), or nil when reading fails.
    ///
    /// A large file is read in parts on every core at once: most of a read's time is the kernel zeroing the
    /// buffer's new pages before it copies into them (a third of the start-up at 100,000 products), and that
    /// work divides.
    init?(reading descriptor: Int32, size: Int) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
        RecordArena.preferHugePages(buffer, size)
        let count = size < 8 << 20 ? 1 : min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)
        let parts = (0..<count).map { size * $0 / count..<size * ($0 + 1) / count }
        // Each part's end as read: short when the file ended sooner, -1 when reading failed.
        let ends = Locked([Int](repeating: 0, count: count))
        // Unchecked, as a raw pointer must be: each part writes its own range, and `concurrentPerform` returns
        // only when every part has.
        nonisolated(unsafe) let target = buffer
        DispatchQueue.concurrentPerform(iterations: count) { part in
            let end = RecordArena.readPart(descriptor, into: target, parts[part])
            ends.withLock { $0[part] = end }
        }
        let partEnds = ends.withLock { $0 }
        guard !partEnds.contains(-1) else {
            buffer.deallocate()
            return nil
        }
        base = buffer
        // The first part that came up short is where the file ended (it shrank after `fstat`).
        self.count = zip(parts, partEnds).first { $0.1 < $0.0.upperBound }?.1 ?? size
    }

    /// Reads `range` of the file into the same range of `buffer`; returns where reading stopped, or -1 on an error.
    private static func readPart(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, _ range: Range<Int>) -> Int {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let got = pread(descriptor, buffer + offset, range.upperBound - offset, off_t(offset))
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return -1 }
            if got == 0 { break }
            offset += got
        }
        return offset
    }

    deinit {
        base.deallocate()
    }

    /// The bytes, for reading.
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Asks for huge pages for the 2 MiB-aligned part of a large buffer (`malloc` maps large blocks on their own).
    private static func preferHugePages(_ pointer: UnsafeMutableRawPointer, _ count: Int) {
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

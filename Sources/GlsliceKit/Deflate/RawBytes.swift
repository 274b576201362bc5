import Foundation

/// A growable run of bytes that rows are written into in place and that a
/// zlib piece can take over whole: handing a 1 MiB piece to another thread
/// moves this object, not its bytes. Unlike `[UInt8]`, it grows without
/// zero-filling (a row is written once, by the scanline encoder).
final class RawBytes: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Bytes in use, from `base`.
    var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Room for `extra` more bytes after `count` (the bytes in use are kept).
    func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    /// Drops the first `bytes`, moving the rest to the front.
    func dropFirst(_ bytes: Int) {
        guard bytes > 0 else { return }
        memmove(base, base + bytes, count - bytes)
        count -= bytes
    }
}

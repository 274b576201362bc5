/// Premultiplied RGBA8 rows that a drawer finished and nobody writes any
/// more: a GPU atlas read back, or one strip of a large output. Encoder threads
/// read it. Its memory is either allocated here (and given back to its budget)
/// or lent, such as a mapped GPU pixel-pack buffer, and handed back through
/// `onRelease` when the last reader lets go.
package final class PixelBuffer: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let byteCount: Int
    private let budget: MemoryBudget?
    private let onRelease: (@Sendable () -> Void)?

    /// Allocates `byteCount` bytes, first taking them from `budget` (which may block).
    init(byteCount: Int, budget: MemoryBudget?) {
        budget?.acquire(byteCount)
        self.byteCount = byteCount
        self.budget = budget
        onRelease = nil
        base = .allocate(capacity: max(1, byteCount))
    }

    /// Memory lent by its owner, who gets `onRelease` once nobody reads it any more.
    init(lent base: UnsafeMutablePointer<UInt8>, byteCount: Int, onRelease: @escaping @Sendable () -> Void) {
        self.base = base
        self.byteCount = byteCount
        budget = nil
        self.onRelease = onRelease
    }

    deinit {
        if let onRelease {
            onRelease()
        } else {
            base.deallocate()
            budget?.release(byteCount)
        }
    }
}

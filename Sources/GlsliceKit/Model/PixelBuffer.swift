/// Premultiplied RGBA8 rows that a drawer finished and nobody writes any
/// more: a GPU atlas read back, or one band of a large output. Encoder threads
/// read it; its memory goes back to the budget when the last reader lets go.
public final class PixelBuffer: @unchecked Sendable {
    public let base: UnsafeMutablePointer<UInt8>
    public let byteCount: Int
    private let budget: MemoryBudget?

    /// Allocates `byteCount` bytes, first taking them from `budget` (which may block).
    public init(byteCount: Int, budget: MemoryBudget?) {
        budget?.acquire(byteCount)
        self.byteCount = byteCount
        self.budget = budget
        base = .allocate(capacity: max(1, byteCount))
    }

    deinit {
        base.deallocate()
        budget?.release(byteCount)
    }
}

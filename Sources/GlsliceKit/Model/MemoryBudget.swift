import Foundation

/// Bytes of drawn pixels allowed in flight between the GPU thread and the
/// encoders: the GPU runs ahead until the budget is spent, then waits, so a
/// fast drawer cannot fill memory. One request larger than the whole budget
/// is let through when nothing else is held, so no output can wait forever.
public final class MemoryBudget: @unchecked Sendable {
    public let capacity: Int
    private var used = 0
    private var most = 0
    private let condition = NSCondition()

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Blocks until `bytes` fit.
    public func acquire(_ bytes: Int) {
        condition.lock()
        while used > 0 && used + bytes > capacity { condition.wait() }
        used += bytes
        most = max(most, used)
        condition.unlock()
    }

    public func release(_ bytes: Int) {
        condition.lock()
        used -= bytes
        condition.broadcast()
        condition.unlock()
    }

    /// The most bytes held at once so far.
    public var peak: Int {
        condition.lock()
        defer { condition.unlock() }
        return most
    }

    /// Bytes held now.
    public var held: Int {
        condition.lock()
        defer { condition.unlock() }
        return used
    }
}

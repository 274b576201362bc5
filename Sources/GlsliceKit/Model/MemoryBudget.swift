import Foundation

/// Bytes of drawn pixels allowed in flight between the GPU thread and the
/// encoders: the GPU runs ahead until the budget is spent, then waits, so a
/// fast drawer cannot fill memory. One request larger than the whole budget
/// is let through when nothing else is held, so no output can wait forever.
package final class MemoryBudget: @unchecked Sendable {
    package let capacity: Int
    private var used = 0
    private var most = 0
    private var waitingNow = 0
    private let condition = NSCondition()

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Blocks until `bytes` fit.
    func acquire(_ bytes: Int) {
        condition.lock()
        while used > 0 && used + bytes > capacity {
            waitingNow += 1
            condition.wait()
            waitingNow -= 1
        }
        used += bytes
        most = max(most, used)
        condition.unlock()
    }

    package func release(_ bytes: Int) {
        condition.lock()
        used -= bytes
        condition.broadcast()
        condition.unlock()
    }

    /// The most bytes held at once so far.
    var peak: Int {
        condition.lock()
        defer { condition.unlock() }
        return most
    }

    /// Threads waiting in `acquire` now (tests wait for this rather than sleeping).
    package var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return waitingNow
    }

    /// Bytes held now.
    package var held: Int {
        condition.lock()
        defer { condition.unlock() }
        return used
    }
}

import Dispatch
import Synchronization

/// A blocking FIFO with a capacity, so a fast stage cannot run ahead of a slow
/// one and memory stays bounded whatever the manifest's length.
///
/// Two counting semaphores carry the waiting (free slots, queued items) and a
/// mutex guards the storage; `close` wakes every waiter, each waking the next.
package final class BoundedQueue<Element: Sendable>: Sendable {
    private struct Storage {
        /// Popped slots are set to nil at once, so a queue never keeps what it handed out alive.
        var items: [Element?] = []
        var head = 0
        var closed = false
        var count: Int { items.count - head }

        /// Drops the popped prefix once it is most of the storage.
        mutating func compact() {
            if head > 64 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
        }

        /// The oldest item, its slot cleared; nil when none is queued.
        mutating func take() -> Element? {
            guard head < items.count, let item = items[head] else { return nil }
            items[head] = nil
            head += 1
            compact()
            return item
        }
    }

    private let storage = Locked(Storage())
    private let freeSlots: DispatchSemaphore
    private let queued = DispatchSemaphore(value: 0)
    private let blockedNow = Atomic<Int>(0)

    /// Threads blocked in `push` or `pop` now, waiting for a slot or an item
    /// (tests wait for this rather than sleeping and hoping).
    var blocked: Int { blockedNow.load(ordering: .acquiring) }

    /// Waits on `semaphore`, counted in `blocked` when it has to block.
    private func wait(_ semaphore: DispatchSemaphore) {
        guard semaphore.wait(timeout: .now()) != .success else { return }
        blockedNow.add(1, ordering: .releasing)
        semaphore.wait()
        blockedNow.subtract(1, ordering: .releasing)
    }

    /// Whether nothing is queued now.
    package var isEmpty: Bool { storage.withLock { $0.count == 0 } }

    package init(capacity: Int) { freeSlots = DispatchSemaphore(value: max(1, capacity)) }

    /// Blocks while full. Returns false when the queue was closed.
    @discardableResult
    package func push(_ item: Element) -> Bool {
        wait(freeSlots)
        let accepted = storage.withLock { storage in
            guard !storage.closed else { return false }
            storage.items.append(item)
            return true
        }
        if accepted { queued.signal() } else { freeSlots.signal() } // closed: wake the next pusher
        return accepted
    }

    /// Queues `item` only when a slot is free now; false when full or closed (never blocks).
    package func tryPush(_ item: Element) -> Bool {
        guard freeSlots.wait(timeout: .now()) == .success else { return false }
        let accepted = storage.withLock { storage in
            guard !storage.closed else { return false }
            storage.items.append(item)
            return true
        }
        if accepted { queued.signal() } else { freeSlots.signal() }
        return accepted
    }

    /// Blocks while empty; nil once closed and drained.
    package func pop() -> Element? {
        wait(queued)
        let item: Element? = storage.withLock { $0.take() }
        if item != nil { freeSlots.signal() } else { queued.signal() } // closed: wake the next popper
        return item
    }

    /// What a timed pop found.
    package enum Timed {
        case item(Element)
        /// Nothing arrived in time; the queue is still open.
        case empty
        /// Closed and drained.
        case closed
    }

    /// Waits at most `timeout` for an item (`.zero`: only what is queued now).
    package func pop(within timeout: Duration) -> Timed {
        guard queued.wait(timeout: DispatchTime.now() + Self.nanoseconds(timeout)) == .success else { return .empty }
        let item: Element? = storage.withLock { $0.take() }
        guard let item else {
            queued.signal() // closed: wake the next popper
            return .closed
        }
        freeSlots.signal()
        return .item(item)
    }

    /// Takes what is queued now, up to `limit`, waiting only for the first.
    func popBatch(limit: Int) -> [Element] {
        popBatch(limit: limit, gathering: .zero, gap: .zero)
    }

    /// Waits for a first item, then gathers more, up to `limit` in all: while
    /// each arrives within `gap` of the one before, for at most `gathering`.
    /// Requests that arrive together leave together; a lone one waits `gap`.
    func popBatch(limit: Int, gathering: Duration, gap: Duration) -> [Element] {
        guard let first = pop() else { return [] }
        var batch = [first]
        let deadline = DispatchTime.now() + Self.nanoseconds(gathering)
        while batch.count < limit {
            let next = min(deadline, DispatchTime.now() + Self.nanoseconds(gap))
            guard queued.wait(timeout: next) == .success else { break }
            guard let item = storage.withLock({ $0.take() }) else {
                queued.signal() // the close signal: leave it for the next pop
                break
            }
            freeSlots.signal()
            batch.append(item)
        }
        return batch
    }

    private static func nanoseconds(_ duration: Duration) -> DispatchTimeInterval {
        .nanoseconds(Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000))
    }

    /// No more pushes; poppers drain what is left and then get nil.
    package func close() {
        storage.withLock { $0.closed = true }
        queued.signal()
        freeSlots.signal()
    }

    /// Closes and drops what is still queued, waking every waiter; returns the
    /// dropped items so that the caller can account for each one.
    @discardableResult
    package func cancel() -> [Element] {
        let dropped = storage.withLock { storage -> [Element] in
            storage.closed = true
            let rest = storage.items[storage.head...].compactMap { $0 }
            storage.items.removeAll()
            storage.head = 0
            return rest
        }
        for _ in dropped { freeSlots.signal() }
        queued.signal()
        freeSlots.signal()
        return dropped
    }
}

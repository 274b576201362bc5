import Dispatch
import Synchronization

/// A blocking FIFO with a capacity, so a fast stage cannot run ahead of a slow
/// one and memory stays bounded whatever the manifest's length.
///
/// Two counting semaphores carry the waiting (free slots, queued items) and a
/// mutex guards the storage; `close` wakes every waiter, each waking the next.
final class BoundedQueue<Element: Sendable>: Sendable {
    private struct Storage {
        var items: [Element] = []
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

        mutating func take() -> Element {
            let item = items[head]
            head += 1
            compact()
            return item
        }
    }

    private let storage = Locked(Storage())
    private let freeSlots: DispatchSemaphore
    private let queued = DispatchSemaphore(value: 0)

    init(capacity: Int) { freeSlots = DispatchSemaphore(value: max(1, capacity)) }

    /// Blocks while full. Returns false when the queue was closed.
    @discardableResult
    func push(_ item: Element) -> Bool {
        freeSlots.wait()
        let accepted = storage.withLock { storage in
            guard !storage.closed else { return false }
            storage.items.append(item)
            return true
        }
        if accepted { queued.signal() } else { freeSlots.signal() } // closed: wake the next pusher
        return accepted
    }

    /// Blocks while empty; nil once closed and drained.
    func pop() -> Element? {
        queued.wait()
        let item: Element? = storage.withLock { $0.count > 0 ? $0.take() : nil }
        if item != nil { freeSlots.signal() } else { queued.signal() } // closed: wake the next popper
        return item
    }

    /// Takes what is queued now, up to `limit`, waiting only for the first.
    func popBatch(limit: Int) -> [Element] {
        guard let first = pop() else { return [] }
        var batch = [first]
        while batch.count < limit, queued.wait(timeout: .now()) == .success {
            guard let item = storage.withLock({ $0.count > 0 ? $0.take() : nil }) else {
                queued.signal() // the close signal: leave it for the next pop
                break
            }
            freeSlots.signal()
            batch.append(item)
        }
        return batch
    }

    /// No more pushes; poppers drain what is left and then get nil.
    func close() {
        storage.withLock { $0.closed = true }
        queued.signal()
        freeSlots.signal()
    }
}

import Foundation

/// A blocking FIFO with a capacity, so a fast stage cannot run ahead of a slow
/// one and memory stays bounded whatever the manifest's length.
final class BoundedQueue<Element>: @unchecked Sendable {
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
    private let condition = NSCondition()

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Blocks while full. Returns false when the queue was closed.
    @discardableResult
    func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Blocks while empty; nil once closed and drained.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head == 0 && !closed { condition.wait() }
        guard items.count - head > 0 else { return nil }
        let item = items[head]
        head += 1
        compact()
        condition.broadcast()
        return item
    }

    /// Takes what is queued now, up to `limit`, without waiting past the first.
    func popBatch(limit: Int) -> [Element] {
        guard let first = pop() else { return [] }
        condition.lock()
        defer { condition.unlock() }
        var batch = [first]
        while batch.count < limit && items.count - head > 0 {
            batch.append(items[head])
            head += 1
        }
        compact()
        condition.broadcast()
        return batch
    }

    /// Drops the popped prefix once it is most of the storage (caller holds the lock).
    private func compact() {
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }

    /// No more pushes; poppers drain what is left and then get nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

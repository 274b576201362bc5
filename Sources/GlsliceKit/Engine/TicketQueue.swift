/// A FIFO of the hybrid scheduler's tickets: popped slots are dropped in bulk, as `BoundedQueue` does.
struct TicketQueue {
    private var items: [Int] = []
    private var head = 0
    var count: Int { items.count - head }
    var first: Int? { head < items.count ? items[head] : nil }

    mutating func push(_ ticket: Int) { items.append(ticket) }

    mutating func pop() -> Int? {
        guard head < items.count else { return nil }
        defer {
            head += 1
            if head > 64 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
        }
        return items[head]
    }
}

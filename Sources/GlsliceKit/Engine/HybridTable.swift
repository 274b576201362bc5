/// The hybrid's jobs by ticket. Tickets are handed out in order and mostly finish in
/// order, so a window of slots from the oldest unfinished ticket does what a dictionary
/// did at a fraction of its cost: booking a GPU call of 1,024 jobs took 2 ms with one
/// (issue 68), a tenth of that call's time at ten times a core.
struct HybridTable {
    /// `slots[i]` is ticket `base + i`; those before `head` are finished.
    private var slots: [HybridEntry?] = []
    private var base = 0
    private var head = 0
    private(set) var count = 0
    var isEmpty: Bool { count == 0 }

    /// Adds `entry` under the next ticket.
    mutating func append(_ entry: HybridEntry) -> Int {
        slots.append(entry)
        count += 1
        return base + slots.count - 1
    }

    subscript(ticket: Int) -> HybridEntry? {
        get {
            let i = ticket - base
            return i >= head && i < slots.count ? slots[i] : nil
        }
        _modify {
            let i = ticket - base
            if i >= head && i < slots.count && slots[i] != nil {
                yield &slots[i]
                if slots[i] == nil { removed(at: i) }
            } else {
                var none: HybridEntry? = nil
                yield &none
                precondition(none == nil, "HybridTable: a ticket is added by append only")
            }
        }
    }

    /// Removes and returns `ticket`'s entry; nil when it was finished already.
    mutating func removeValue(forKey ticket: Int) -> HybridEntry? {
        let i = ticket - base
        guard i >= head && i < slots.count, let entry = slots[i] else { return nil }
        slots[i] = nil
        removed(at: i)
        return entry
    }

    private mutating func removed(at i: Int) {
        count -= 1
        guard i == head else { return }
        while head < slots.count && slots[head] == nil { head += 1 }
        if head > 64 && head * 2 > slots.count {
            slots.removeFirst(head)
            base += head
            head = 0
        }
    }
}

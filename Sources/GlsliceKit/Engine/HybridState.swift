import Foundation

/// Where a job is in the hybrid.
enum HybridHolder { case queued, gathered, dispatched, delivered, cpu }

/// A job in the hybrid's table: its item boxed (one retain to copy), its cost, who holds it.
struct HybridEntry {
    var box: AnyObject
    var cost: Double
    var pixels: Int
    var holder = HybridHolder.queued
    var backedUp = false
}

/// What `HybridScheduler` keeps under its lock, and every rule that works on it. Not
/// generic, so it is compiled once for every item type: a scheduler made in another
/// module (serve's, the bench's double) runs it at full speed.
struct HybridState {
    var entries = HybridTable()
    var pending = TicketQueue()
    var pendingCost = 0.0
    var cpuOnly = TicketQueue()
    /// What the GPU claimed, in claim order; those it still `holds` (gathered or
    /// dispatched: not delivered, finished or handed back) are looked at.
    var gpuHeld: [Int] = []
    var closed = false
    /// The GPU side stopped: it takes no more calls.
    var gpuGone = false
    var sizer: HybridCallSizer
    /// The GPU's call under way: when it began, the cost it dispatched, the cost left waiting then.
    var call: (start: ContinuousClock.Instant, cost: Double, pending: Double)?
    var figures = HybridFigures()

    /// What a worker takes from the table.
    enum Take { case whole, backup }

    func holds(_ ticket: Int) -> Bool {
        switch entries[ticket]?.holder {
        case .gathered?, .dispatched?: true
        default: false
        }
    }

    var waiting: Int { pending.count + cpuOnly.count }

    mutating func add(_ entry: HybridEntry, cpuOnly toCPU: Bool) -> Int {
        let ticket = entries.append(entry)
        if toCPU {
            cpuOnly.push(ticket)
        } else {
            pending.push(ticket)
            pendingCost += entry.cost
        }
        return ticket
    }

    /// A worker's next job after the GPU's drawn ones: its own (handed back, or
    /// beyond the GPU), then any waiting, then one the GPU gathered but has not
    /// dispatched (taken back), then, with `backups`, a copy of one it dispatched.
    mutating func takeForCPU(backups: Bool) -> (Take, Int, AnyObject)? {
        if let ticket = cpuOnly.pop(), let entry = entries[ticket] {
            entries[ticket]?.holder = .cpu
            return (.whole, ticket, entry.box)
        }
        if let ticket = pending.pop(), let entry = entries[ticket] {
            pendingCost -= entry.cost
            entries[ticket]?.holder = .cpu
            return (.whole, ticket, entry.box)
        }
        if let index = gpuHeld.lastIndex(where: { entries[$0]?.holder == .gathered }) {
            let ticket = gpuHeld[index]
            entries[ticket]?.holder = .cpu
            figures.takenBack += 1
            return entries[ticket].map { (.whole, ticket, $0.box) }
        }
        if backups || closed,
           let ticket = gpuHeld.first(where: { entries[$0]?.holder == .dispatched && entries[$0]?.backedUp == false }),
           let entry = entries[ticket] {
            entries[ticket]?.backedUp = true
            figures.cpu.backupsRun += 1
            return (.backup, ticket, entry.box)
        }
        return nil
    }

    /// `ticket` is done, by the side that drew it: false when it was done already.
    mutating func finish(_ ticket: Int, gpuDrew: Bool, backup: Bool = false) -> Bool {
        guard let entry = entries.removeValue(forKey: ticket) else { return false }
        if backup { figures.cpu.backupsWon += 1 }
        if gpuDrew {
            figures.gpu.outputs += 1
            figures.gpu.pixels += entry.pixels
        } else {
            figures.cpu.outputs += 1
            figures.cpu.pixels += entry.pixels
        }
        return true
    }

    /// The GPU's next call from what waits, within `allowed` cost (one job at least).
    mutating func claimCall(allowed: Double) -> [(Int, AnyObject)] {
        gpuHeld.removeAll { entries[$0].map { $0.holder != .gathered && $0.holder != .dispatched } ?? true }
        var claims: [(Int, AnyObject)] = []
        var taken = 0.0
        while claims.count < sizer.maxJobs, let ticket = pending.first, let entry = entries[ticket],
              claims.isEmpty || taken + entry.cost <= allowed {
            _ = pending.pop()
            pendingCost -= entry.cost
            taken += entry.cost
            entries[ticket]?.holder = .gathered
            gpuHeld.append(ticket)
            claims.append((ticket, entry.box))
        }
        call = (ContinuousClock.now, 0, pendingCost)
        figures.gpu.calls += 1
        return claims
    }

    /// Those of `tickets` still the GPU's, now dispatched.
    mutating func dispatch(_ tickets: [Int]) -> Set<Int> {
        var dispatched = Set<Int>()
        for ticket in tickets {
            guard entries[ticket]?.holder == .gathered, let cost = entries[ticket]?.cost else { continue }
            entries[ticket]?.holder = .dispatched
            call?.cost += cost
            dispatched.insert(ticket)
        }
        return dispatched
    }

    /// The GPU will not finish `ticket`: back to the workers, unless one has it already.
    mutating func decline(_ ticket: Int) -> Bool {
        guard holds(ticket), let entry = entries[ticket], !entry.backedUp else { return false }
        entries[ticket]?.holder = .queued
        cpuOnly.push(ticket)
        figures.declined += 1
        return true
    }

    /// The call under way, if any, has ended: its time feeds the sizer.
    mutating func endCall() {
        guard let ended = call else { return }
        call = nil
        let seconds = (ContinuousClock.now - ended.start).inSeconds
        figures.gpu.busySeconds += seconds
        sizer.gpuCallEnded(cost: ended.cost, seconds: seconds, pending: ended.pending)
    }
}

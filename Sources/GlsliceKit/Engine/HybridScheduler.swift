import Foundation

/// The hybrid's one scheduler, in batch and serve (issue 68): CPU workers and a
/// GPU side take jobs from one pool, so the run is never slower than its faster side.
///
/// - The GPU takes calls sized by `HybridCallSizer`. It claims a call's jobs only
///   when it makes the call, and each job again just before its GL work
///   (`dispatching`): until then an idle CPU worker can take it back.
/// - The GPU never streams a job to a waiting CPU worker: what it cannot finish
///   itself (too large for an atlas and not encoded on it, or failed) it hands
///   back (`declined`), and a CPU worker draws it whole.
/// - What the GPU drew but the CPU encodes (`delivered`) comes first for the workers.
/// - At the end (or any time in serve, `backupsWhileOpen`), an idle worker runs a
///   backup copy of a job the GPU holds. The first to finish wins (`cpuClaim`,
///   `gpuDone` say so); the other result is dropped.
package final class HybridScheduler<Item: Sendable, Delivered: Sendable>: @unchecked Sendable {
    package typealias Ticket = Int

    /// What a CPU worker is handed.
    package enum CPUWork {
        /// A job to draw and encode here.
        case whole(Ticket, Item)
        /// A job the GPU drew: the rest of it (its encoding or its file) here.
        case rest(Ticket, Item, Delivered)
        /// A copy of a job the GPU holds: the first to finish wins.
        case backup(Ticket, Item)

        package var ticket: Ticket {
            switch self {
            case .whole(let t, _), .rest(let t, _, _), .backup(let t, _): t
            }
        }
        package var item: Item {
            switch self {
            case .whole(_, let i), .rest(_, let i, _), .backup(_, let i): i
            }
        }
    }

    /// One job of a GPU call.
    package struct Claim: Sendable {
        package var ticket: Ticket
        package var item: Item
    }

    /// A job, boxed: the table copies entries under the lock, and a box is one retain.
    final class Box: @unchecked Sendable {
        let item: Item
        init(_ item: Item) { self.item = item }
    }

    let condition = NSCondition()
    var state: HybridState
    /// What the GPU drew, for the workers first (`rests[restHead...]`): kept beside the state, as its type is the caller's.
    var rests: [(Ticket, Delivered)] = []
    var restHead = 0
    let capacity: Int
    let backupsWhileOpen: Bool
    let cost: @Sendable (Item) -> Double
    let pixels: @Sendable (Item) -> Int
    /// Called (outside the lock) after work for the CPU was added: serve queues a drain on its threads.
    let onCPUWork: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - capacity: jobs waiting at most (`submit` blocks beyond it).
    ///   - backupsWhileOpen: back up the GPU's jobs whenever a worker is idle (serve), not only once closed.
    ///   - gpuGuess: the GPU's seconds over one CPU worker's, before a call is timed (`HybridCallSizer.gpuGuess`).
    ///   - softwareGPU: a software rasteriser (`HybridCallSizer.software`).
    package init(cpuWorkers: Int, capacity: Int = 4096, backupsWhileOpen: Bool = false, maxJobsPerCall: Int = 4096,
                 gpuGuess: Double? = nil, softwareGPU: Bool = false, cost: @escaping @Sendable (Item) -> Double,
                 pixels: @escaping @Sendable (Item) -> Int, onCPUWork: (@Sendable () -> Void)? = nil) {
        var sizer = HybridCallSizer(cpuWorkers: cpuWorkers, gpuGuess: gpuGuess, software: softwareGPU)
        sizer.maxJobs = max(1, maxJobsPerCall)
        state = HybridState(sizer: sizer)
        self.capacity = max(1, capacity)
        self.backupsWhileOpen = backupsWhileOpen
        self.cost = cost
        self.pixels = pixels
        self.onCPUWork = onCPUWork
    }

    func locked<T>(_ body: (inout HybridState) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    func item(_ box: AnyObject) -> Item { unsafeDowncast(box, to: Box.self).item }

    /// Adds a job, blocking while `capacity` wait; `cpuOnly` jobs never go to the GPU.
    /// False once closed.
    @discardableResult
    package func submit(_ item: Item, cpuOnly: Bool = false) -> Bool {
        let entry = HybridEntry(box: Box(item), cost: cost(item), pixels: pixels(item))
        condition.lock()
        while !state.closed && state.waiting >= capacity { condition.wait() }
        guard !state.closed else {
            condition.unlock()
            return false
        }
        _ = state.add(entry, cpuOnly: cpuOnly)
        condition.broadcast()
        condition.unlock()
        onCPUWork?()
        return true
    }

    /// No more jobs: the GPU's calls and the workers end once what is left is done.
    package func close() {
        locked { $0.closed = true }
        condition.broadcast()
    }

    /// The next work for a CPU worker; nil once closed with nothing left, or,
    /// with `wait` false, when there is nothing to do now.
    package func nextForCPU(wait: Bool = true) -> CPUWork? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let work = takeForCPU() {
                if state.waiting < capacity { condition.broadcast() }
                return work
            }
            if state.closed && state.entries.isEmpty { return nil }
            guard wait else { return nil }
            condition.wait()
        }
    }

    /// Under the lock: the GPU's drawn jobs first, then the rest of the table's order (`HybridState.takeForCPU`).
    private func takeForCPU() -> CPUWork? {
        while restHead < rests.count {
            let (ticket, delivered) = rests[restHead]
            restHead += 1
            if restHead > 64 && restHead * 2 > rests.count {
                rests.removeFirst(restHead)
                restHead = 0
            }
            if let entry = state.entries[ticket] { return .rest(ticket, item(entry.box), delivered) }
        }
        guard let (take, ticket, box) = state.takeForCPU(backups: backupsWhileOpen) else { return nil }
        switch take {
        case .whole: return .whole(ticket, item(box))
        case .backup: return .backup(ticket, item(box))
        }
    }

    /// A CPU worker finished `work` (its output made, or its error known): true
    /// when it is the first copy to finish, so the caller names and records it;
    /// false when the other side finished first, and this result is dropped. Once a work.
    package func cpuClaim(_ work: CPUWork) -> Bool {
        let won: Bool = locked { state in
            let drewOnGPU: Bool = if case .rest = work { true } else { false }
            let backup: Bool = if case .backup = work { true } else { false }
            return state.finish(work.ticket, gpuDrew: drewOnGPU, backup: backup)
        }
        condition.broadcast()
        return won
    }

    /// A CPU worker spent `seconds` on `work`, won or not: its busy time, and the CPU side's measured rate.
    package func cpuRan(_ work: CPUWork, seconds: Double) {
        let cost = self.cost(work.item)
        locked { state in
            state.figures.cpu.busySeconds += seconds
            switch work {
            case .whole, .backup: state.sizer.cpuRan(cost: cost, seconds: seconds)
            case .rest: state.sizer.cpuFinishedRest(cost: cost, seconds: seconds)
            }
        }
        condition.broadcast() // the GPU may wait for the CPU side's rate
    }

    /// Each side's figures so far, with `wall` seconds of run and the CPU side's `workers`.
    package func figures(wall: Double, workers: Int) -> HybridFigures {
        var figures = locked { $0.figures }
        figures.cpu.idleSeconds = max(0, wall * Double(max(1, workers)) - figures.cpu.busySeconds)
        figures.gpu.idleSeconds = max(0, wall - figures.gpu.busySeconds)
        return figures
    }
}

/// How much the GPU's next call takes in a hybrid run, from what each side was
/// measured to do (issue 68). Work is counted in a caller's cost units
/// (batch and serve: pixels plus a job's fixed cost).
///
/// - A call starts at one job. While calls finish before the CPU side (every
///   worker) would have finished the work waiting when they began, the next may
///   take twice as much, or at once enough that its fixed seconds (latency) are a
///   twentieth of it; when one does not, the next takes half.
/// - It never takes more than its balanced share of what waits: the part the GPU
///   finishes in the time the CPU side takes for the rest. So the GPU is never
///   handed the run's tail, and a GPU slower than the CPU side on one job takes none.
/// - With a guess at the GPU's speed (its encoder's self-check), it waits for the
///   CPU side's first timing and takes only what the guess says it wins. Without
///   one, its first call is one job, which warms the driver up (shader compiles,
///   uploads) and is not counted.
package struct HybridCallSizer: Sendable {
    /// CPU threads that draw and encode whole jobs.
    let cpuWorkers: Int
    /// Jobs in one call at most. Each call has fixed costs (latency, a wake-up, its
    /// bookkeeping): at 1,024 a call the double at ten times a core lost 8% to them.
    var maxJobs = 4096
    /// The cost the next call may take; 0 means one job.
    package private(set) var budget = 0.0
    /// The CPU workers' recent jobs, seconds and cost, each older job weighing a little less
    /// (a process's first jobs run cold); `cpuJobs` counts them all.
    private var cpuSeconds = 0.0, cpuCost = 0.0, cpuJobs = 0
    private var restSeconds = 0.0, restCost = 0.0
    /// The GPU's recent calls, each older one weighing 0.7 of the next: the sums of a
    /// least-squares line, seconds = latency + cost * seconds per cost unit.
    private var fitWeight = 0.0, fitCost = 0.0, fitSeconds = 0.0, fitCostSquared = 0.0, fitCostSeconds = 0.0

    /// A call's fixed seconds and the GPU's seconds per cost unit, from its recent calls: the
    /// line through them where their sizes differ, else their ratio (latency counted in).
    private var gpuFit: (latency: Double, perCost: Double)? {
        guard fitWeight > 0, fitCost > 0 else { return nil }
        let ratio = fitSeconds / fitCost
        let det = fitWeight * fitCostSquared - fitCost * fitCost
        guard det > 1e-9 * fitWeight * fitCostSquared else { return (0, ratio) }
        let perCost = (fitWeight * fitCostSeconds - fitCost * fitSeconds) / det
        let latency = (fitSeconds - perCost * fitCost) / fitWeight
        return perCost > 0 && latency >= 0 ? (latency, perCost) : (0, ratio)
    }
    private var calls = 0

    /// The GPU's seconds over one CPU worker's for the same work, guessed before any
    /// call is timed (the GPU encoder's self-check); nil: no guess, the first call tells.
    var gpuGuess: Double?

    /// A software rasteriser (llvmpipe): its calls run on the CPU workers' cores, so
    /// it helps only where it beats one worker on the work it saves, not the whole side.
    package var software = false

    init(cpuWorkers: Int, gpuGuess: Double? = nil, software: Bool = false) {
        self.cpuWorkers = max(1, cpuWorkers)
        self.gpuGuess = gpuGuess
        self.software = software
    }

    /// A CPU worker drew and encoded a job of `cost` in `seconds`.
    package mutating func cpuRan(cost: Double, seconds: Double) {
        let keep = 0.98
        cpuSeconds = keep * cpuSeconds + max(0, seconds)
        cpuCost = keep * cpuCost + cost
        cpuJobs += 1
    }

    /// A CPU worker did the rest of a job the GPU drew (its encoding, or its file) in `seconds`.
    mutating func cpuFinishedRest(cost: Double, seconds: Double) {
        restSeconds = 0.98 * restSeconds + max(0, seconds)
        restCost = 0.98 * restCost + cost
    }

    /// The part of a job's CPU time the GPU saves by drawing it: all of it, less what
    /// is left for a worker after (llvmpipe's drawing costs the same cores, so a
    /// GPU that only draws must beat the CPU on the draw alone).
    var savedFraction: Double {
        guard restCost > 0, cpuCost > 0, cpuSeconds > 0 else { return 1 }
        return max(0.05, 1 - (restSeconds / restCost) / (cpuSeconds / cpuCost))
    }

    /// Seconds per cost unit of the whole CPU side, once each worker has timed two jobs.
    var cpuSideSecondsPerCost: Double? {
        cpuJobs >= 2 * cpuWorkers && cpuCost > 0 && cpuSeconds > 0 ? cpuSeconds / cpuCost / Double(cpuWorkers) : nil
    }

    /// Seconds per cost unit of the GPU: as timed, else as guessed.
    var gpuSideSecondsPerCost: Double? {
        gpuFit?.perCost ?? gpuGuess.flatMap { guess in cpuSideSecondsPerCost.map { guess * $0 * Double(cpuWorkers) } }
    }

    /// A GPU call's fixed seconds, as timed (0 until two sizes of call were).
    var gpuLatency: Double { gpuFit?.latency ?? 0 }

    /// The GPU finished a call of `cost` in `seconds`, begun with `pending` cost
    /// waiting: grow while it beats the CPU side, shrink when it does not.
    mutating func gpuCallEnded(cost: Double, seconds: Double, pending: Double) {
        calls += 1
        guard cost > 0, calls > (gpuGuess == nil ? 1 : 0) else { return } // a first call without a guess warms up
        // What the call took off the CPU side: its jobs less the rest a worker still does.
        let cost = cost * savedFraction
        let keep = 0.7, seconds = max(seconds, 1e-9)
        fitWeight = keep * fitWeight + 1
        fitCost = keep * fitCost + cost
        fitSeconds = keep * fitSeconds + seconds
        fitCostSquared = keep * fitCostSquared + cost * cost
        fitCostSeconds = keep * fitCostSeconds + cost * seconds
        guard let cpu = cpuSideSecondsPerCost else { return }
        if seconds <= (pending + cost) * cpu {
            // On time: twice as much, and at least enough that the call's fixed seconds
            // are a twentieth of it (small calls spend their time on latency).
            let amortized = gpuFit.map { $0.perCost > 0 ? 19 * $0.latency / $0.perCost : 0 } ?? 0
            budget = max(2 * max(budget, cost), amortized)
        } else {
            budget = min(budget, cost) / 2
        }
    }

    /// The GPU's balanced share of `pending`: what it finishes, its call's latency
    /// included, while the CPU side finishes the rest (latency + C * gpu = (pending - C) * cpu).
    private func share(of pending: Double) -> Double? {
        guard let cpu = cpuSideSecondsPerCost, let gpu = gpuSideSecondsPerCost else { return nil }
        return max(0, (pending * cpu - gpuLatency) / (gpu + cpu))
    }

    /// The cost the GPU may take now, with `pending` cost waiting, the first
    /// job costing `first`; nil: none now (the CPU side finishes it sooner).
    func callCost(pending: Double, first: Double) -> Double? {
        var take = max(budget, first)
        if gpuGuess != nil && cpuSideSecondsPerCost == nil { return nil } // the guess is relative to the CPU: wait for its timing
        if software, let cpu = cpuSideSecondsPerCost, let gpu = gpuSideSecondsPerCost, gpu >= cpu * Double(cpuWorkers) {
            return nil // each of its calls takes a core for longer than a worker would take for the same work
        }
        if let cpu = cpuSideSecondsPerCost, let gpu = gpuSideSecondsPerCost, let share = share(of: pending) {
            if share < first {
                // Less than a job: one only if the GPU finishes it before the CPU side finishes everything.
                return gpuLatency + first * gpu <= pending * cpu ? first : nil
            }
            take = min(take, share)
        }
        return take
    }
}

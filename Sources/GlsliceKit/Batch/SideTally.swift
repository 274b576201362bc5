import Foundation

/// What each side of a batch did, for `--stats`: the hybrid's scheduler counts
/// its own; otherwise the encoders count what they were handed here.
final class SideTally: Sendable {
    let workers: Int
    private let counted = Locked(HybridFigures())
    private let scheduler: DrawStage.Scheduler?
    /// Whether a GPU draw stage ran (its busy time is the run less its waits for work).
    private let gpu: Bool
    private let times: StageTimes?

    init(workers: Int, gpu: Bool, times: StageTimes? = nil) {
        self.workers = workers
        self.gpu = gpu
        self.times = times
        scheduler = nil
    }

    init(workers: Int, scheduler: DrawStage.Scheduler) {
        self.workers = workers
        self.scheduler = scheduler
        gpu = true
        times = nil
    }

    /// An encoder finished an output drawn where `drawing` says, busy for `busy`.
    func add(_ drawing: Drawing, pixels: Int, busy: Duration) {
        let seconds = busy.inSeconds
        counted.withLock { figures in
            figures.cpu.busySeconds += seconds
            if case .here = drawing {
                figures.cpu.outputs += 1
                figures.cpu.pixels += pixels
            } else {
                figures.gpu.outputs += 1
                figures.gpu.pixels += pixels
            }
        }
    }

    func figures(wall: Double) -> HybridFigures {
        if let scheduler { return scheduler.figures(wall: wall, workers: workers) }
        var figures = counted.withLock { $0 }
        figures.cpu.idleSeconds = max(0, wall * Double(workers) - figures.cpu.busySeconds)
        if gpu {
            figures.gpu.busySeconds = max(0, wall - (times?.seconds(.drawWait) ?? 0))
            figures.gpu.idleSeconds = wall - figures.gpu.busySeconds
        }
        return figures
    }
}

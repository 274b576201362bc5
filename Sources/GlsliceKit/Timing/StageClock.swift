import Foundation
import Synchronization

/// The two clocks a CPU stage is timed by: the wall clock (busy time, and its share of the
/// batch's wall time) and the thread's own CPU time. Only the second is the thread's work:
/// a thread that waits for a core counts on the wall clock, so with more threads than cores
/// (a batch's reader, preparers, encoders) busy times move with whatever else runs, and
/// issue 51's "encode thread time" is CPU time.
package enum StageClock {
    package struct Instant: Sendable {
        let wall: ContinuousClock.Instant
        let cpu: Duration

        package static func - (later: Instant, earlier: Instant) -> StageTime {
            StageTime(wall: later.wall - earlier.wall, cpu: later.cpu - earlier.cpu)
        }
    }

    /// Now, on both clocks (the CPU time is this thread's: `CLOCK_THREAD_CPUTIME_ID`).
    package static var now: Instant { Instant(wall: .now, cpu: threadCPU) }

    /// Whether `threadCPU` reads the thread's CPU clock: a system call (0.6 µs on this VM, not in
    /// the vDSO), 16 an output, 2% of a small-output farm's CPU. `batch` reads it only with
    /// `--stats`, the one place its figures are shown (issue 71).
    package static let readsCPU = Atomic<Bool>(true)

    /// This thread's CPU time so far (a helper's, to add to the stage that waited for it); zero
    /// while `readsCPU` is off.
    static var threadCPU: Duration {
        guard readsCPU.load(ordering: .relaxed) else { return .zero }
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}

import CEGL
import Foundation

/// Counts the GL calls each thread makes (`GLCallCounts`, issue 52), thread-locally in C
/// (`gs_gl_tally`): every checked call adds to it without a lock.
enum GLTally {
    /// This thread's counts so far.
    static var here: GLCallCounts {
        let tally = gs_gl_tally_here().pointee
        var result = GLCallCounts()
        result.seconds = Double(tally.nanoseconds) / 1e9
        result.calls = Int(tally.calls)
        result.dispatches = Int(tally.dispatches)
        result.waits = Int(tally.waits)
        return result
    }

    /// What a GL call is, for the tally: a read-back or fence is a wait when a dispatch or
    /// a draw was queued since the last one.
    enum Kind {
        case call, draw, dispatch, wait
    }

    /// Runs `body` (GL calls), adding its time to this thread's tally as one call of `kind`.
    @inline(__always)
    static func timing<T>(_ kind: Kind = .call, _ body: () throws -> T) rethrows -> T {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        defer {
            clock_gettime(CLOCK_MONOTONIC, &end)
            let tally = gs_gl_tally_here()
            tally.pointee.nanoseconds &+= UInt64(max(0, (end.tv_sec - start.tv_sec) * 1_000_000_000 + (end.tv_nsec - start.tv_nsec)))
            tally.pointee.calls &+= 1
            switch kind {
            case .call: break
            case .draw: tally.pointee.queued = 1
            case .dispatch:
                tally.pointee.dispatches &+= 1
                tally.pointee.queued = 1
            case .wait:
                if tally.pointee.queued != 0 { tally.pointee.waits &+= 1 }
                tally.pointee.queued = 0
            }
        }
        return try body()
    }
}

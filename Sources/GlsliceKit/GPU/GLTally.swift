import CEGL
import Foundation

/// The GL calls one thread has made (issue 52): the time spent inside them, how many,
/// how many were compute dispatches and how many waited for the GPU. The GL thread's
/// time outside them is its own work (`Stage.gpuOwn`): what must stay a sliver of the
/// CPU's per output for one thread to feed a GPU node. Kept thread-locally in C
/// (`gs_gl_tally`): every checked call adds to it without a lock.
package struct GLTally: Sendable, Equatable, Codable {
    package var seconds = 0.0
    package var calls = 0
    package var dispatches = 0
    package var waits = 0

    package init() {}

    /// This thread's tally so far.
    static var here: GLTally {
        let tally = gs_gl_tally_here().pointee
        var result = GLTally()
        result.seconds = Double(tally.nanoseconds) / 1e9
        result.calls = Int(tally.calls)
        result.dispatches = Int(tally.dispatches)
        result.waits = Int(tally.waits)
        return result
    }

    /// What was added between `earlier` and this.
    static func - (later: GLTally, earlier: GLTally) -> GLTally {
        var result = GLTally()
        result.seconds = later.seconds - earlier.seconds
        result.calls = later.calls - earlier.calls
        result.dispatches = later.dispatches - earlier.dispatches
        result.waits = later.waits - earlier.waits
        return result
    }

    static func + (a: GLTally, b: GLTally) -> GLTally {
        var result = a
        result.seconds += b.seconds
        result.calls += b.calls
        result.dispatches += b.dispatches
        result.waits += b.waits
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

    /// `gpu calls: 12 encode calls, 1,204 GL calls (0.84 s), 84 dispatches, 60 waits`.
    package func line(encodeCalls: Int) -> String {
        "gpu calls: \(encodeCalls) encode call\(encodeCalls == 1 ? "" : "s"), \(calls) GL calls (\(String(format: "%.2f", seconds)) s), "
            + "\(dispatches) dispatches, \(waits) waits"
    }
}

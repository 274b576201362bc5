import Foundation

/// GL calls counted (issue 52): the time spent inside them, how many, how many were compute
/// dispatches and how many waited for the GPU. `GLTally` (GL/) counts them on each thread;
/// `StageTimes` and `--stats` carry them. The GL thread's time outside them is its own work
/// (`Stage.gpuOwn`): what must stay a sliver of the CPU's per output for one thread to feed a GPU node.
package struct GLCallCounts: Sendable, Equatable, Codable {
    package var seconds = 0.0
    package var calls = 0
    var dispatches = 0
    var waits = 0

    package init() {}

    /// What was added between `earlier` and this.
    package static func - (later: GLCallCounts, earlier: GLCallCounts) -> GLCallCounts {
        var result = GLCallCounts()
        result.seconds = later.seconds - earlier.seconds
        result.calls = later.calls - earlier.calls
        result.dispatches = later.dispatches - earlier.dispatches
        result.waits = later.waits - earlier.waits
        return result
    }

    package static func + (a: GLCallCounts, b: GLCallCounts) -> GLCallCounts {
        var result = a
        result.seconds += b.seconds
        result.calls += b.calls
        result.dispatches += b.dispatches
        result.waits += b.waits
        return result
    }

    /// `gpu calls: 12 encode calls, 1,204 GL calls (0.84 s), 84 dispatches, 60 waits`.
    package func line(encodeCalls: Int) -> String {
        "gpu calls: \(encodeCalls) encode call\(encodeCalls == 1 ? "" : "s"), \(calls) GL calls (\(String(format: "%.2f", seconds)) s), "
            + "\(dispatches) dispatches, \(waits) waits"
    }
}

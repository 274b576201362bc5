import Foundation

/// One stage's busy time in a finished batch, and its share of the time its
/// threads had: the stage nearest 100% is the bottleneck.
public struct StageShare: Sendable, Encodable {
    public var stage: String
    public var threads: Int
    public var seconds: Double
    /// The threads' own CPU time in the stage (`StageClock`), where every part of it was timed on
    /// that clock: with more threads than cores, busy time also counts waiting for a core.
    var cpuSeconds: Double?
    /// Busy time over (wall time × threads).
    public var share: Double
    /// The outputs the stage counted (`gpu-encode` and `gpu-own`: those encoded on the GPU), for
    /// per-output figures; 0 where it counts none.
    package var items: Int

    /// The stages of a batch that ran `workers` workers for `wall` seconds.
    static func shares(_ times: StageTimes, backend: BackendKind, workers: Int, wall: Double) -> [StageShare] {
        let stages: [(Stage, Int)] = backend == .gpu
            ? [(.prepare, workers), (.draw, 1), (.drawWait, 1), (.readBack, 1), (.gpuEncode, 1), (.gpuOwn, 1), (.encode, workers), (.write, workers)]
            // On the CPU the preparers draw and encode: prepare, draw, encode and write share their threads.
            : [(.prepare, workers), (.draw, workers), (.encode, workers), (.write, workers)]
        return stages.map { stage, threads in
            let seconds = times.seconds(stage)
            return StageShare(stage: stage.rawValue, threads: threads, seconds: seconds, cpuSeconds: times.cpuSeconds(stage),
                              share: wall > 0 ? seconds / (wall * Double(threads)) : 0, items: times.count(stage))
        }
    }

    /// `prepare      2 threads      0.41 s busy    17%     0.38 s cpu`
    package var line: String {
        let name = stage.padding(toLength: max(stage.count, 10), withPad: " ", startingAt: 0)
        return name + String(format: " %3d thread%@ %8.2f s busy %5.0f%%", threads, threads == 1 ? " " : "s", seconds,
                             share * 100) + (cpuSeconds.map { String(format: " %8.2f s cpu", $0) } ?? "")
    }
}

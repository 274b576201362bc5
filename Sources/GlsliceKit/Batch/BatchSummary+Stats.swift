/// What `batch --stats` and `batch --json` say of a summary, worded here once.
extension BatchSummary {
    /// `batch --stats`'s lines after the summary's `line`: each stage, each side, GPU encoding's and the
    /// GL thread's calls, and the CPU time no stage counted (they add up to the process's).
    package var statsLines: [String] {
        var lines = ["stages (busy time summed over each stage's threads; share of their wall time; CPU time where timed):"]
        lines += stages.map(\.line)
        lines += sides.lines
        if gpuEncoding.calls > 0 { lines.append(gpuEncoding.gl.line(encodeCalls: gpuEncoding.calls)) }
        if glThread.calls > 0 {
            // Its CPU time, not busy less GL time: GL calls outside the stages (compiling, the
            // self-check) made that difference negative. Encoding's own part is `gpu-own` above.
            lines.append("gpu thread: \(String(format: "%.2f", glThreadCPUSeconds)) s CPU time"
                         + " (\(glThread.calls) GL calls, \(String(format: "%.2f", glThread.seconds)) s in them)")
        }
        lines.append("other CPU time \(String(format: "%.2f", otherCPUSeconds)) s (the reader, start-up, queues, the kernel"
                     + " outside the stages); with the stages'\(glThread.calls > 0 ? " and the gpu thread's" : ""), the process's"
                     + " \(String(format: "%.2f", processCPUSeconds)) s")
        return lines
    }

    /// `batch --json`'s object: the counts, and with `stages` (`--stats`) where the time went.
    package func json(stages: Bool) -> some Encodable & Sendable { SummaryJSON(self, stages: stages) }
}

/// `batch --json`: the summary on stdout.
struct SummaryJSON: Encodable, Sendable {
    var rendered: Int
    var skipped: Int
    var failed: Int
    var bytes: Int
    var seconds: Double
    var backend: String
    var succeeded: Bool
    /// Each stage's busy time, with `--stats`.
    var stages: [StageShare]?
    /// What each side did, with `--stats`: outputs, megapixels, busy and idle seconds, backups run and won.
    var sides: HybridFigures?
    /// With `--stats`: GPU encoding's encode calls and their GL calls (time, dispatches, waits).
    var gpuEncodeCalls: Int?
    var gpuEncodeGL: GLCallCounts?
    /// With `--stats`: every GL call of the GL thread, and its CPU time (its own work and the driver's).
    var gpuThreadGL: GLCallCounts?
    var gpuThreadCPUSeconds: Double?
    /// With `--stats`: the process's CPU time, and the part of it no stage counted (they add up).
    var processCPUSeconds: Double?
    var otherCPUSeconds: Double?

    init(_ summary: BatchSummary, stages: Bool) {
        rendered = summary.ok
        skipped = summary.skipped
        failed = summary.failed
        bytes = summary.bytes
        seconds = summary.seconds
        backend = summary.backend
        succeeded = summary.succeeded
        self.stages = stages ? summary.stages : nil
        sides = stages ? summary.sides : nil
        gpuEncodeCalls = stages ? summary.gpuEncoding.calls : nil
        gpuEncodeGL = stages ? summary.gpuEncoding.gl : nil
        gpuThreadGL = stages ? summary.glThread : nil
        gpuThreadCPUSeconds = stages ? summary.glThreadCPUSeconds : nil
        processCPUSeconds = stages ? summary.processCPUSeconds : nil
        otherCPUSeconds = stages ? summary.otherCPUSeconds : nil
    }
}

import Foundation

/// How a batch ended.
public struct BatchSummary: Sendable {
    public var ok = 0
    public var skipped = 0
    public var failed = 0
    public var bytes = 0
    public var seconds = 0.0
    public var backend = ""
    var backendKind = BackendKind.cpu
    /// Each stage's busy time (`batch --stats`).
    public var stages: [StageShare] = []
    /// What each side did (`batch --stats`): outputs, pixels, busy and idle time, backups.
    var sides = HybridFigures()
    /// GPU encoding's GL calls, and in how many encode calls (`batch --stats`; none without it).
    var gpuEncoding = (gl: GLCallCounts(), calls: 0)
    /// Every GL call of the GL thread (`batch --stats`), and its CPU time while it ran: its own
    /// work and what the driver does on it (llvmpipe's copies; the GPU's work is elsewhere).
    var glThread = GLCallCounts()
    var glThreadCPUSeconds = 0.0
    /// The process's CPU time when the batch ended (`getrusage`: user and system, every thread, start-up too).
    var processCPUSeconds = 0.0
    /// The process's CPU time that no stage and not the GL thread counted: the reader, start-up,
    /// the queues' waits and wake-ups, threads starting, the kernel's work outside the timed spans.
    /// With the stages' and the GL thread's, it adds up to `processCPUSeconds` (issue 71).
    var otherCPUSeconds: Double {
        processCPUSeconds - stages.reduce(0) { $0 + ($1.cpuSeconds ?? 0) } - glThreadCPUSeconds
    }
    /// A `--results` line could not be written: the run fails even if every job rendered.
    var resultsLost = false
    package var total: Int { ok + skipped + failed }
    public var succeeded: Bool { failed == 0 && !resultsLost }

    package var line: String {
        let rate = seconds > 0 ? Double(ok) / seconds : 0
        return String(format: "batch: %d rendered, %d skipped, %d failed in %.2f s (%.0f renders/s, %@ written) on %@",
                      ok, skipped, failed, seconds, rate, formatBytes(bytes), backend)
    }

    mutating func count(_ result: JobResult) {
        switch result.status {
        case .ok: ok += 1
        case .skipped: skipped += 1
        case .error: failed += 1
        }
        bytes += result.bytes
    }
}

func formatBytes(_ bytes: Int) -> String {
    bytes >= 1 << 20 ? String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
        : String(format: "%.1f KiB", Double(bytes) / 1024)
}

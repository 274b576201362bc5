import Foundation

/// Busy time per stage, summed over the threads of that stage, and the CPU time of those
/// timed on both clocks (`StageClock`). Cheap enough to keep on always: one uncontended
/// lock per strip or job.
package final class StageTimes: Sendable {
    private let nanoseconds = Locked([Int](repeating: 0, count: Stage.allCases.count))
    /// CPU nanoseconds per stage; nil once a stage was given wall time alone (the GL thread's).
    private let cpuNanoseconds = Locked([Int?](repeating: 0, count: Stage.allCases.count))
    private let counts = Locked([Int](repeating: 0, count: Stage.allCases.count))
    /// The GL calls GPU encoding made, and in how many encode calls.
    private let encoding = Locked((gl: GLCallCounts(), calls: 0))

    package init() {}

    /// Adds `duration` of wall time to `stage` (its CPU time is then not known).
    package func add(_ stage: Stage, _ duration: Duration, items: Int = 0) {
        add(stage, wall: duration, cpu: nil, items: items)
    }

    /// Adds `time`, on both clocks, to `stage`.
    package func add(_ stage: Stage, _ time: StageTime, items: Int = 0) {
        add(stage, wall: time.wall, cpu: time.cpu, items: items)
    }

    private func add(_ stage: Stage, wall: Duration, cpu: Duration?, items: Int) {
        let index = Stage.allCases.firstIndex(of: stage) ?? 0
        nanoseconds.withLock { $0[index] += Self.nanoseconds(wall) }
        cpuNanoseconds.withLock { cpus in
            if let cpu, let sum = cpus[index] { cpus[index] = sum + Self.nanoseconds(cpu) } else { cpus[index] = nil }
        }
        if items > 0 { counts.withLock { $0[index] += items } }
    }

    private static func nanoseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
    }

    /// One GPU encode call that took `seconds` outside drawing and made the GL calls `gl`:
    /// `gpu-encode` gets the time, `gpu-own` its part outside GL calls.
    func addGPUEncode(_ duration: Duration, gl: GLCallCounts, items: Int) {
        add(.gpuEncode, duration, items: items)
        add(.gpuOwn, max(.zero, duration - .nanoseconds(Int64(gl.seconds * 1e9))), items: items)
        encoding.withLock {
            $0.gl = $0.gl + gl
            $0.calls += 1
        }
    }

    /// The GL calls GPU encoding made so far, and in how many encode calls.
    package var gpuEncoding: (gl: GLCallCounts, calls: Int) { encoding.withLock { $0 } }

    private let glThread = Locked((gl: GLCallCounts(), cpu: Duration.zero))

    /// Adds what a GL thread did while it ran (drawing, reading back and encoding): its GL calls,
    /// and its CPU time, its own work and the driver's (the wall clock would count its waits).
    func addGLThread(_ gl: GLCallCounts, cpu: Duration) {
        glThread.withLock { $0 = ($0.gl + gl, $0.cpu + cpu) }
    }

    /// The GL threads' calls and CPU seconds so far.
    var glThreadWork: (gl: GLCallCounts, cpuSeconds: Double) {
        glThread.withLock { ($0.gl, Double(Self.nanoseconds($0.cpu)) / 1e9) }
    }

    /// Runs `body`, charging its time on both clocks to `stage`.
    @inline(__always)
    package func time<T>(_ stage: Stage, items: Int = 0, _ body: () throws -> T) rethrows -> T {
        let start = StageClock.now
        defer { add(stage, StageClock.now - start, items: items) }
        return try body()
    }

    /// Seconds of busy time in `stage` so far.
    package func seconds(_ stage: Stage) -> Double {
        let index = Stage.allCases.firstIndex(of: stage) ?? 0
        return Double(nanoseconds.withLock { $0[index] }) / 1e9
    }

    /// Seconds of CPU time in `stage` so far; nil when some of its time was timed on the wall clock alone.
    func cpuSeconds(_ stage: Stage) -> Double? {
        let index = Stage.allCases.firstIndex(of: stage) ?? 0
        return cpuNanoseconds.withLock { $0[index] }.map { Double($0) / 1e9 }
    }

    /// Items counted for `stage` (jobs prepared, strips drawn, outputs encoded).
    package func count(_ stage: Stage) -> Int {
        let index = Stage.allCases.firstIndex(of: stage) ?? 0
        return counts.withLock { $0[index] }
    }
}

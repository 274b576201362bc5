import Foundation
import GlsliceKit
import Synchronization

/// `glslice-bench hybrid [--threads N] [--small N] [--hd N] [--latency-ms L] [--runs R]`
/// (`make bench-hybrid`, issue 68): the product's `HybridScheduler` with a device
/// double as its GPU side. The CPU side renders real jobs (draw and encode, into
/// memory) on `--threads` workers; the double's calls take a set latency plus the
/// time a CPU core would take for their jobs divided by its speed, asleep, so it
/// uses no CPU. For doubles at 0.1x, 1x and 10x a core it prints the makespan
/// against the ideal n / (CPU rate + GPU rate), the CPU rate measured by the
/// same scheduler with no GPU side. Medians of `--runs`, alternated. Figures, not verdicts.
func benchHybrid(_ argv: [String]) throws {
    var threads = ProcessInfo.processInfo.activeProcessorCount, small = 12_000, hd = 2_400, latency = 0.2, runs = 5
    var it = argv.dropFirst(2).makeIterator()
    while let flag = it.next() {
        guard let value = it.next(), let number = Double(value) else { throw GlsliceError(.usage, "\(flag) needs a number") }
        switch flag {
        case "--threads": threads = max(1, Int(number))
        case "--small": small = max(1, Int(number))
        case "--hd": hd = max(1, Int(number))
        case "--latency-ms": latency = max(0, number)
        case "--runs": runs = max(1, Int(number))
        default: throw GlsliceError(.usage, "unknown option \(flag) (--threads, --small, --hd, --latency-ms, --runs)")
        }
    }
    let sets = [("small", try doubleJobs(count: small, hd: false)), ("HD", try doubleJobs(count: hd, hd: true))]
    print("device double: \(latency) ms a call, \(threads) CPU workers; medians of \(runs) alternated runs")
    print("| set | jobs | CPU alone | double | makespan | ideal | makespan / ideal | GPU outputs | GPU calls | backups run / won |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (name, jobs) in sets {
        let factors = [0.1, 1.0, 10.0]
        var cpuTimes: [Double] = [], hybrid: [Double: [(Double, HybridFigures)]] = [:]
        for _ in 0..<runs {
            cpuTimes.append(runDouble(jobs, threads: threads, factor: nil, latency: latency, coreSecondsPerCost: 0).seconds)
            let cpu = median(cpuTimes)
            // A core's seconds per cost unit, from the CPU side alone: the double runs at `factor` times it.
            let perCost = cpu * Double(threads) / jobs.reduce(0) { $0 + doubleCost($1) }
            for factor in factors {
                let run = runDouble(jobs, threads: threads, factor: factor, latency: latency, coreSecondsPerCost: perCost)
                hybrid[factor, default: []].append((run.seconds, run.figures))
            }
        }
        let cpu = median(cpuTimes), n = Double(jobs.count)
        let cpuRate = n / cpu, coreRate = cpuRate / Double(threads)
        for factor in factors {
            let runsHere = hybrid[factor] ?? []
            let makespan = median(runsHere.map(\.0))
            let figures = runsHere.sorted { $0.0 < $1.0 }[runsHere.count / 2].1
            let ideal = n / (cpuRate + factor * coreRate)
            print(String(format: "| %@ | %d | %.3f s | %.1fx a core | %.3f s | %.3f s | %.3f | %d | %d | %d / %d |", name, jobs.count, cpu,
                         factor, makespan, ideal, makespan / ideal, figures.gpu.outputs, figures.gpu.calls,
                         figures.cpu.backupsRun, figures.cpu.backupsWon))
        }
    }
}

/// A job's cost, as batch counts it (pixels plus a job's fixed cost).
private func doubleCost(_ job: PreparedJob) -> Double { Double(job.size.pixelCount + 16_384) }

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// The bench's own job set (small), or HD outputs of the same sources, prepared as batch prepares them.
private func doubleJobs(count: Int, hd: Bool) throws -> [PreparedJob] {
    var decoded: [String: ResolvedSource] = [:]
    for (name, _) in sources {
        let image = try PNGDecoder.decode(path: "Fixtures/\(name)", maxPixels: 1 << 24).premultiplied()
        decoded[name] = ResolvedSource(source: SourceImage(image: image, file: name), key: SourceKey(contentHash: "bench:\(name)", recipe: .plain))
    }
    var rng = SeededGenerator(seed: hd ? 7 : 42)
    return try makeJobs(count: count, seed: hd ? 7 : 42).map { job in
        var request = job.request
        if hd {
            request.size = .pixels(PixelSize(width: Int.random(in: 1280...1920, using: &rng), height: Int.random(in: 720...1080, using: &rng)))
            request.outputScale = 1
        }
        guard let source = decoded[job.source] else { throw GlsliceError(.internal, "no source \(job.source)") }
        var prepared = try PreparedJob(request: request, source: source, limits: Limits())
        prepared.prepareAhead()
        return prepared
    }
}

/// One run through the scheduler: `threads` CPU workers rendering for real, and the double
/// (none when `factor` is nil). Returns the makespan and each side's figures.
private func runDouble(_ jobs: [PreparedJob], threads: Int, factor: Double?, latency: Double,
                       coreSecondsPerCost: Double) -> (seconds: Double, figures: HybridFigures) {
    // Items are indices into `jobs`: the double's own bookkeeping then costs next to nothing,
    // as a GPU's thread would spend its time in GL calls rather than copying jobs.
    typealias Scheduler = HybridScheduler<Int, Void>
    let costs = jobs.map(doubleCost), pixels = jobs.map(\.size.pixelCount)
    let scheduler = Scheduler(cpuWorkers: threads, capacity: jobs.count, cost: { costs[$0] }, pixels: { pixels[$0] })
    for index in jobs.indices { scheduler.submit(index) }
    scheduler.close()
    let start = ContinuousClock.now
    let failures = Atomic<Int>(0)
    let workers = WorkerThreads(count: threads, name: "bench-cpu") { _ in
        while let work = scheduler.nextForCPU() {
            let begun = ContinuousClock.now
            do {
                _ = try Engine.encode(jobs[work.item], drawing: .here, to: .memory)
            } catch {
                failures.add(1, ordering: .relaxed)
            }
            _ = scheduler.cpuClaim(work)
            scheduler.cpuRan(work, seconds: (ContinuousClock.now - begun).inSeconds)
        }
    }
    if let factor {
        // The double: each call asleep for its latency and its jobs' time at `factor` times a core.
        while case let claims = scheduler.nextGPUCall(), !claims.isEmpty {
            let taken = scheduler.dispatching(claims.map(\.ticket))
            var cost = 0.0
            for claim in claims where taken.contains(claim.ticket) { cost += costs[claim.item] }
            let seconds = latency / 1000 + cost * coreSecondsPerCost / factor
            Thread.sleep(forTimeInterval: seconds)
            _ = scheduler.gpuDone(Array(taken))
        }
        scheduler.endCall()
    }
    scheduler.gpuEnded()
    workers.wait() // they end once every job is done
    let seconds = (ContinuousClock.now - start).inSeconds
    if failures.load(ordering: .relaxed) > 0 { print("warning: \(failures.load(ordering: .relaxed)) jobs failed") }
    return (seconds, scheduler.figures(wall: seconds, workers: threads))
}

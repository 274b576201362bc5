import Foundation
import Testing
@testable import GlsliceKit

/// `HybridScheduler`'s rules, stepped by hand (no clocks): take-back before
/// dispatch, backups at the end and the first finisher winning, hand-backs,
/// and what the GPU drew coming first for the workers.
@Suite struct HybridSchedulerTests {
    typealias Scheduler = HybridScheduler<Int, String>

    func scheduler(_ jobs: [Int], close: Bool = true) -> Scheduler {
        let s = Scheduler(cpuWorkers: 2, cost: { Double($0) }, pixels: { $0 })
        for job in jobs { s.submit(job) }
        if close { s.close() }
        return s
    }

    @Test func anIdleWorkerTakesBackWhatTheGPUHasNotDispatched() {
        let s = scheduler([10, 20, 30])
        let call = s.nextGPUCall()
        #expect(call.map(\.item) == [10]) // the first call is one job
        guard case .whole(_, 20)? = s.nextForCPU(wait: false), case .whole(_, 30)? = s.nextForCPU(wait: false) else {
            Issue.record("the workers take what waits first")
            return
        }
        guard case .whole(let ticket, 10)? = s.nextForCPU(wait: false) else {
            Issue.record("nothing left to wait for: the gathered job is taken back")
            return
        }
        #expect(ticket == call[0].ticket)
        #expect(!s.dispatching(ticket)) // the GPU skips it
        #expect(s.figures(wall: 0, workers: 2).takenBack == 1)
    }

    @Test func aBackupRunsAtTheEndAndTheFirstToFinishWins() throws {
        let s = scheduler([10, 20])
        let claim = try #require(s.nextGPUCall().first)
        #expect(s.dispatching(claim.ticket))
        let other = try #require(s.nextForCPU(wait: false))
        #expect(s.cpuClaim(other))
        // Nothing waits and the input is closed: a backup of the GPU's job.
        let backup = try #require(s.nextForCPU(wait: false))
        guard case .backup(let ticket, 10) = backup else {
            Issue.record("expected a backup, got \(backup)")
            return
        }
        #expect(ticket == claim.ticket)
        #expect(s.nextForCPU(wait: false) == nil) // one backup a job
        #expect(s.cpuClaim(backup))                 // the backup finished first
        #expect(!s.delivered(claim.ticket, "late")) // the GPU's copy is dropped
        #expect(!s.gpuDone(claim.ticket))
        let figures = s.figures(wall: 1, workers: 2)
        #expect(figures.cpu.outputs == 2 && figures.gpu.outputs == 0)
        #expect(figures.cpu.backupsRun == 1 && figures.cpu.backupsWon == 1)
        #expect(s.nextGPUCall().isEmpty && s.nextForCPU() == nil) // all done
    }

    @Test func whenTheGPUFinishesFirstTheBackupIsDropped() throws {
        let s = scheduler([10])
        let claim = try #require(s.nextGPUCall().first)
        #expect(s.dispatching(claim.ticket))
        let backup = try #require(s.nextForCPU(wait: false))
        #expect(s.gpuDone(claim.ticket))
        #expect(!s.cpuClaim(backup))
        let figures = s.figures(wall: 1, workers: 2)
        #expect(figures.gpu.outputs == 1 && figures.cpu.outputs == 0)
        #expect(figures.cpu.backupsRun == 1 && figures.cpu.backupsWon == 0)
    }

    @Test func whatTheGPUDrewComesFirstAndWhatItHandsBackGoesToTheCPU() throws {
        let s = scheduler([10, 20, 30], close: false)
        let first = try #require(s.nextGPUCall().first)
        #expect(s.dispatching(first.ticket))
        #expect(s.delivered(first.ticket, "rows of 10"))
        guard case .rest(first.ticket, 10, "rows of 10")? = s.nextForCPU(wait: false) else {
            Issue.record("the GPU's drawn job comes before the jobs waiting")
            return
        }
        // A job handed back (too large to finish on the GPU, or its GL work failed) is drawn whole on the CPU.
        let second = try #require(s.nextGPUCall().first)
        s.declined(second.ticket)
        guard case .whole(second.ticket, 20)? = s.nextForCPU(wait: false) else {
            Issue.record("a handed-back job goes to the CPU first")
            return
        }
        #expect(s.figures(wall: 0, workers: 2).declined == 1)
        // CPU-only jobs never reach the GPU.
        s.submit(40, cpuOnly: true)
        s.close()
        let rest = s.nextGPUCall()
        #expect(rest.map(\.item) == [30] || rest.isEmpty)
    }

    /// A device double on a thread of its own (calls answered at once) and three
    /// workers: every job is finished exactly once, whoever takes it.
    @Test func everyJobIsFinishedOnceWithBothSidesRunning() {
        let count = 400
        let s = Scheduler(cpuWorkers: 3, capacity: 16, cost: { Double($0 % 7 + 1) }, pixels: { _ in 1 })
        let finished = Locked([Int: Int]())
        let workers = WorkerThreads(count: 3, name: "test-cpu") { _ in
            while let work = s.nextForCPU() {
                if s.cpuClaim(work) { finished.withLock { $0[work.item, default: 0] += 1 } }
                s.cpuRan(work, seconds: 1e-5)
            }
        }
        let feeder = WorkerThreads(count: 1, name: "test-feed") { _ in
            for job in 0..<count { s.submit(job) }
            s.close()
        }
        while case let claims = s.nextGPUCall(), !claims.isEmpty {
            for claim in claims where s.dispatching(claim.ticket) {
                if claim.item % 5 == 0 {
                    s.declined(claim.ticket)
                } else if s.gpuDone(claim.ticket) {
                    finished.withLock { $0[claim.item, default: 0] += 1 }
                }
            }
        }
        s.gpuEnded()
        feeder.wait()
        workers.wait()
        let counts = finished.withLock { $0 }
        #expect(counts.count == count && counts.values.allSatisfy { $0 == 1 })
        let figures = s.figures(wall: 1, workers: 3)
        #expect(figures.cpu.outputs + figures.gpu.outputs == count)
    }
}

/// `HybridCallSizer`: how large the GPU's next call is, from figures given by hand.
@Suite struct HybridCallSizerTests {
    /// Two workers that took 0.01 s for each job of cost 100: the CPU side does 1 cost unit in 5e-5 s.
    func measured() -> HybridCallSizer {
        var sizer = HybridCallSizer(cpuWorkers: 2)
        for _ in 0..<4 { sizer.cpuRan(cost: 100, seconds: 0.01) }
        return sizer
    }

    @Test func aCallDoublesWhileItBeatsTheCPUSideAndHalvesWhenItDoesNot() throws {
        var sizer = measured()
        #expect(abs(try #require(sizer.cpuSideSecondsPerCost) - 5e-5) < 1e-12)
        #expect(sizer.callCost(pending: 10_000, first: 100) == 100) // one job first
        sizer.gpuCallEnded(cost: 100, seconds: 1, pending: 1_000) // the first call warms up: not counted
        #expect(sizer.budget == 0 && sizer.gpuSideSecondsPerCost == nil)
        sizer.gpuCallEnded(cost: 100, seconds: 0.001, pending: 1_000) // 0.001 s <= 1,100 * 5e-5 s
        #expect(sizer.budget == 200)
        #expect(sizer.callCost(pending: 10_000, first: 100) == 200)
        sizer.gpuCallEnded(cost: 200, seconds: 1, pending: 100) // 1 s > 300 * 5e-5 s: late
        #expect(sizer.budget == 100)
    }

    @Test func onceItsLatencyIsKnownACallGrowsAtOnceToTwentyTimesIt() {
        var sizer = measured()
        sizer.gpuCallEnded(cost: 100, seconds: 0.5, pending: 0) // warm-up
        sizer.gpuCallEnded(cost: 100, seconds: 0.0011, pending: 1_000_000) // one size: no latency known yet
        #expect(sizer.budget == 200)
        // Through (100, 0.0011 s) and (200, 0.0012 s): 0.001 s a call, 1e-6 s a unit. Latency a
        // twentieth of a call: 19 * 0.001 / 1e-6 = 19,000 units, more than doubling's 400.
        sizer.gpuCallEnded(cost: 200, seconds: 0.0012, pending: 1_000_000)
        #expect(abs(sizer.gpuLatency - 0.001) < 1e-9)
        #expect(abs(sizer.budget - 19_000) < 1e-3, "\(sizer.budget)")
    }

    @Test func theGPUTakesItsShareAndNothingWhenTheCPUSideIsSoonerOnAJob() throws {
        var sizer = measured()
        sizer.gpuCallEnded(cost: 100, seconds: 0.5, pending: 0) // warm-up
        for _ in 0..<6 { sizer.gpuCallEnded(cost: 1_000, seconds: 0.01, pending: 1_000_000) } // 1e-5 s a unit
        let share = try #require(sizer.callCost(pending: 12_000, first: 100))
        // C * 1e-5 = (12,000 - C) * 5e-5: C = 10,000, unless the budget is smaller.
        #expect(abs(share - min(sizer.budget, 10_000)) < 1e-6, "\(share)")
        // A GPU at 0.01 s a unit: one job (1 s) is slower than the CPU side's 500 units (0.025 s).
        var slow = measured()
        slow.gpuCallEnded(cost: 100, seconds: 0.5, pending: 0)
        slow.gpuCallEnded(cost: 100, seconds: 1, pending: 0)
        #expect(slow.callCost(pending: 500, first: 100) == nil)
    }

    @Test func aGuessWaitsForTheCPUSidesTimingAndASoftwareGPUMustBeatOneWorker() {
        var guessed = HybridCallSizer(cpuWorkers: 2, gpuGuess: 100)
        #expect(guessed.callCost(pending: 1_000, first: 100) == nil) // the guess is relative to the CPU's timing
        for _ in 0..<4 { guessed.cpuRan(cost: 100, seconds: 0.01) }
        // A guess of 100x a worker: 1e-2 s a unit; one job (1 s) loses to the CPU side's 1,000 units (0.05 s).
        #expect(guessed.callCost(pending: 1_000, first: 100) == nil)
        // llvmpipe at 2e-4 s a unit: faster than the whole side's 5e-5? No; than one worker's 1e-4? No: none.
        var software = HybridCallSizer(cpuWorkers: 2, software: true)
        for _ in 0..<4 { software.cpuRan(cost: 100, seconds: 0.01) }
        software.gpuCallEnded(cost: 100, seconds: 0.5, pending: 0)
        software.gpuCallEnded(cost: 100, seconds: 0.02, pending: 1_000_000)
        #expect(software.callCost(pending: 1_000_000, first: 100) == nil)
        var hardware = HybridCallSizer(cpuWorkers: 2)
        for _ in 0..<4 { hardware.cpuRan(cost: 100, seconds: 0.01) }
        hardware.gpuCallEnded(cost: 100, seconds: 0.5, pending: 0)
        hardware.gpuCallEnded(cost: 100, seconds: 0.02, pending: 1_000_000)
        #expect(hardware.callCost(pending: 1_000_000, first: 100) != nil) // the same speed, on hardware: its share
    }
}

/// `HybridTable`: jobs by ticket, finished in any order.
@Suite struct HybridTableTests {
    @Test func ticketsFinishInAnyOrderAndTheWindowMovesOn() {
        var table = HybridTable()
        let box = NSObject()
        for expected in 0..<200 { #expect(table.append(HybridEntry(box: box, cost: Double(expected), pixels: expected)) == expected) }
        #expect(table.count == 200)
        #expect(table.removeValue(forKey: 5)?.pixels == 5)
        #expect(table.removeValue(forKey: 5) == nil && table[5] == nil) // once
        for ticket in 0..<150 where ticket != 5 { _ = table.removeValue(forKey: ticket) } // past the compaction
        #expect(table.count == 50 && table[149] == nil && table[150]?.pixels == 150 && table[199]?.cost == 199)
        table[170]?.holder = .gathered
        #expect(table[170]?.holder == .gathered && table[171]?.holder == .queued)
        #expect(table.append(HybridEntry(box: box, cost: 0, pixels: 200)) == 200 && table[200]?.pixels == 200)
        #expect(table[-1] == nil && table[201] == nil)
        for ticket in (150...200).reversed() { _ = table.removeValue(forKey: ticket) }
        #expect(table.isEmpty && table[160] == nil)
    }
}

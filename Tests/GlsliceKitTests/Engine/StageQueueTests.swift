import Foundation
import Testing
@testable import GlsliceKit

/// The engine's queues and memory budget alone, without a batch around them.
/// A wait that a missed wake-up would block for good runs through `holdsWithin`, so it fails
/// instead of stalling the run; the time limit names any test that still blocks (it cannot unblock it).
@Suite(.timeLimit(.minutes(1))) struct StageQueueTests {
    @Test func cancelDropsWhatIsQueuedAndReturnsIt() {
        let queue = BoundedQueue<Int>(capacity: 8)
        for i in 0..<5 { #expect(queue.push(i)) }
        #expect(queue.pop() == 0)
        #expect(queue.cancel() == [1, 2, 3, 4]) // in order: the caller accounts for each
        #expect(!queue.push(5))
        #expect(holdsWithin { queue.pop() == nil })
        #expect(holdsWithin { queue.popBatch(limit: 4).isEmpty })
    }

    @Test func cancelWakesBlockedPushersAndPoppers() {
        let full = BoundedQueue<Int>(capacity: 1)
        #expect(full.push(0))
        let empty = BoundedQueue<Int>(capacity: 1)
        let done = DispatchGroup()
        let refused = Counter(), ended = Counter()
        for i in 1...3 {
            done.enter()
            Thread { if !full.push(i) { refused.add() }; done.leave() }.start()
            done.enter()
            Thread { if empty.pop() == nil { ended.add() }; done.leave() }.start()
        }
        #expect(waitUntil { full.blocked == 3 && empty.blocked == 3 }, "all six block")
        #expect(full.cancel() == [0])
        empty.cancel()
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(refused.value == 3 && ended.value == 3)
    }

    /// Four producers and four consumers through a queue of two: every item
    /// comes out exactly once, and each producer's items in the order it pushed them.
    @Test func manyProducersAndConsumersLoseNothing() {
        let queue = BoundedQueue<Int>(capacity: 2)
        let seen = Locked([[Int]](repeating: [], count: 4))
        let producers = WorkerThreads(count: 4, name: "test-produce") { p in
            for i in 0..<500 { queue.push(p * 1000 + i) }
        }
        let consumers = WorkerThreads(count: 4, name: "test-consume") { c in
            var mine: [Int] = []
            while let item = queue.pop() { mine.append(item) }
            seen.withLock { $0[c] = mine }
        }
        producers.wait()
        queue.close()
        // Every consumer must see the close (a popper left asleep would block `wait()` for good).
        guard holdsWithin(seconds: 30, { consumers.wait(); return true }) else {
            Issue.record("a consumer never saw the close")
            return
        }
        let all = seen.withLock { $0 }
        #expect(all.flatMap { $0 }.sorted() == (0..<4).flatMap { p in (0..<500).map { p * 1000 + $0 } })
        // Per consumer, each producer's items are increasing (FIFO is kept).
        for items in all {
            for p in 0..<4 {
                let mine = items.filter { $0 / 1000 == p }
                #expect(mine == mine.sorted())
            }
        }
    }

    @Test func budgetBlocksUntilReleasedAndLetsOneOversizeRequestThrough() {
        let budget = MemoryBudget(capacity: 100)
        budget.acquire(60)
        let got = Counter()
        let waiter = DispatchGroup()
        waiter.enter()
        Thread { budget.acquire(60); got.add(); waiter.leave() }.start()
        #expect(waitUntil { budget.waiting == 1 }, "120 > 100: it waits")
        #expect(got.value == 0)
        budget.release(60)
        #expect(waiter.wait(timeout: .now() + 5) == .success)
        budget.release(60)
        budget.acquire(250) // larger than the budget, nothing held: let through
        #expect(budget.held == 250)
        budget.release(250)
        #expect(budget.peak == 250)
    }

    @Test func aBandStreamDeliversInOrderOrItsDrawersError() throws {
        let stream = StripStream(depth: 2)
        Thread {
            for rows in 1...5 {
                let buffer = PixelBuffer(byteCount: 4, budget: nil)
                buffer.base.initialize(repeating: UInt8(rows), count: 4)
                stream.send(Strip(buffer: buffer, offset: 0, rows: rows, rowStride: 4))
            }
            stream.fail(GlsliceError(.internal, "the GPU went away"))
        }.start()
        var seen: [Int] = []
        #expect(throws: GlsliceError.self) {
            while let band = try stream.next() { seen.append(Int(band.buffer.base[0])) }
        }
        // Cancelling drops bands still queued, so only a prefix arrives, in order.
        #expect(seen == Array(1...seen.count).map { $0 })
    }
}

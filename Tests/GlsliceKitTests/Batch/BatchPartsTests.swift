import Foundation
import Synchronization
import Testing
@testable import GlsliceKit

/// Shelf packing for GPU atlases, with positions worked out by hand.
@Suite struct ShelfTests {
    @Test func fillsShelvesLeftToRightThenGoesDown() {
        var shelf = Shelf(side: 10)
        #expect(shelf.place(PixelSize(width: 4, height: 3))! == (0, 0))
        #expect(shelf.place(PixelSize(width: 4, height: 2))! == (4, 0))
        // 8 + 3 > 10: a new shelf below the tallest of the first (3).
        #expect(shelf.place(PixelSize(width: 3, height: 5))! == (0, 3))
        #expect(shelf.usedWidth == 8)
        #expect(shelf.usedHeight == 8)
        #expect(shelf.place(PixelSize(width: 7, height: 5))! == (3, 3))
        #expect(shelf.usedWidth == 10)
        // 8 + 3 > 10 rows: full.
        #expect(shelf.place(PixelSize(width: 1, height: 3)) == nil)
    }

    @Test func refusesWhatCannotFitAtAll() {
        var shelf = Shelf(side: 10)
        #expect(shelf.place(PixelSize(width: 11, height: 1)) == nil)
        #expect(shelf.place(PixelSize(width: 1, height: 11)) == nil)
        #expect(shelf.place(PixelSize(width: 10, height: 10))! == (0, 0))
    }
}

/// The bounded queue between batch stages.
/// A wait that a missed wake-up would block for good runs through `holdsWithin`, so it fails
/// instead of stalling the run; the time limit names any test that still blocks (it cannot unblock it).
@Suite(.timeLimit(.minutes(1))) struct BoundedQueueTests {
    @Test func keepsOrderAndDrainsAfterClose() {
        let queue = BoundedQueue<Int>(capacity: 8)
        for i in 0..<5 { #expect(queue.push(i)) }
        queue.close()
        #expect(!queue.push(99)) // refused after close
        #expect(queue.popBatch(limit: 3) == [0, 1, 2])
        #expect(queue.pop() == 3)
        #expect(queue.pop() == 4)
        #expect(holdsWithin { queue.pop() == nil }, "a pop after the last item ends")
        #expect(holdsWithin { queue.pop() == nil }, "the queue stays closed for every later popper")
        #expect(holdsWithin { queue.popBatch(limit: 4).isEmpty })
    }

    @Test func closeWakesBlockedPoppers() {
        let queue = BoundedQueue<Int>(capacity: 2)
        let results = DispatchGroup()
        let popped = Counter()
        for _ in 0..<3 {
            results.enter()
            Thread {
                if queue.pop() == nil { popped.add() }
                results.leave()
            }.start()
        }
        #expect(waitUntil { queue.blocked == 3 }, "three poppers block on the empty queue") 
        queue.close()
        #expect(results.wait(timeout: .now() + 5) == .success)
        #expect(popped.value == 3)
    }

    @Test func closeCancelsBlockedPushers() {
        let queue = BoundedQueue<Int>(capacity: 1)
        #expect(queue.push(0))
        let done = DispatchGroup()
        let refused = Counter()
        for i in 1...3 {
            done.enter()
            Thread {
                if !queue.push(i) { refused.add() }
                done.leave()
            }.start()
        }
        #expect(waitUntil { queue.blocked == 3 }, "all three pushers block: the queue is full")
        queue.close()
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(refused.value == 3)
        #expect(queue.pop() == 0)
        #expect(holdsWithin { queue.pop() == nil })
    }

    @Test func capacityBoundsWhatIsQueued() {
        let queue = BoundedQueue<Int>(capacity: 3)
        let pushed = Counter()
        let producer = DispatchGroup()
        producer.enter()
        Thread {
            for i in 0..<10 { queue.push(i); pushed.add() }
            producer.leave()
        }.start()
        #expect(waitUntil { queue.blocked == 1 }, "the fourth push waits for a free slot")
        #expect(pushed.value == 3)
        var seen: [Int] = []
        while seen.count < 10, let item = queue.pop() { seen.append(item) }
        #expect(seen == Array(0..<10))
        #expect(producer.wait(timeout: .now() + 5) == .success)
    }
}

/// A thread-safe count for the tests above.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// The decoded-source cache: capped in bytes, least recently used out first.
@Suite struct SourceCacheTests {
    /// A `width`×1 opaque PNG; decoded it takes `width × 4` bytes.
    func writeSource(_ name: String, width: Int, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try PNGEncoder.write(PremultipliedImage(RGBAImage(width: width, height: 1,
                                                          pixels: [UInt8](repeating: 255, count: width * 4))),
                             to: .file(path))
        return path
    }

    @Test func evictsTheLeastRecentlyUsed() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 100 px = 400 bytes each; the cache holds 1,000 bytes: two of them.
        let a = try writeSource("a.png", width: 100, in: folder)
        let b = try writeSource("b.png", width: 100, in: folder)
        let c = try writeSource("c.png", width: 100, in: folder)
        let cache = SourceCache(capacityBytes: 1000, maxPixels: 1 << 20)
        _ = try cache.source(at: a)
        _ = try cache.source(at: b)
        #expect(cache.residentPaths == [a, b])
        _ = try cache.source(at: a) // a is now the most recent
        #expect(cache.residentPaths == [b, a])
        _ = try cache.source(at: c) // over 1,000 bytes: b goes
        #expect(cache.residentPaths == [a, c])
        // Larger than the whole cache: decoded and returned, never kept.
        let big = try writeSource("big.png", width: 300, in: folder)
        #expect(try cache.source(at: big).image.width == 300)
        #expect(cache.residentPaths == [a, c])
    }

    @Test func anEditedFileIsReadAgain() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeSource("s.png", width: 10, in: folder)
        let cache = SourceCache(capacityBytes: 1 << 20, maxPixels: 1 << 20)
        let first = try cache.source(at: path)
        #expect(first.image.width == 10)
        _ = try writeSource("s.png", width: 12, in: folder) // a new file: new inode, size and time
        let second = try cache.source(at: path)
        #expect(second.image.width == 12)
        #expect(second.contentHash != first.contentHash)
    }
}

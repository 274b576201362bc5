import CFiles
import Foundation

/// A fixed set of named threads running one body each, the one worker type of
/// the engine's stages and of serve's render pool. Threads rather than tasks:
/// they block on queues, on zlib and on GL, which would starve Swift's
/// cooperative pool.
package final class WorkerThreads: Sendable {
    private let group = DispatchGroup()
    package let count: Int

    /// Starts `count` threads named `name-0`, `name-1`… (`name` alone when there is one);
    /// each runs `body(index)` and ends. The name reaches the OS too (`top -H`, `perf`,
    /// `/proc/…/task/…/comm`), which keeps its first 15 bytes: names are chosen to fit.
    package init(count: Int, name: String, body: @escaping @Sendable (Int) -> Void) {
        self.count = count
        for index in 0..<count {
            group.enter()
            let threadName = count == 1 ? name : "\(name)-\(index)"
            let thread = Thread { [group] in
                Self.nameForTheOS(threadName)
                body(index)
                group.leave()
            }
            thread.name = threadName
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Gives the calling thread `name` where the OS shows it (Foundation's `Thread.name`
    /// does not reach the kernel on Linux), cut to the 15 bytes Linux keeps.
    package static func nameForTheOS(_ name: String) {
        _ = gs_name_thread(name)
    }

    /// Runs `body` with the calling thread named `name` for the OS, then gives it its name back:
    /// the batch's GL thread is the one that called it, not one of these.
    package static func named<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        var was = [CChar](repeating: 0, count: 16)
        let had = gs_thread_name(&was, UInt(was.count)) == 0
        nameForTheOS(name)
        defer { if had { _ = gs_name_thread(was) } }
        return try body()
    }

    /// Blocks until every thread's body has returned.
    package func wait() { group.wait() }
}

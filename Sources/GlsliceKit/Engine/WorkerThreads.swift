import Foundation

/// A fixed set of named threads running one body each, the one worker type of
/// the engine's stages and of serve's render pool. Threads rather than tasks:
/// they block on queues, on zlib and on GL, which would starve Swift's
/// cooperative pool.
package final class WorkerThreads: Sendable {
    private let group = DispatchGroup()
    package let count: Int

    /// Starts `count` threads named `name-0`, `name-1`…; each runs `body(index)` and ends.
    package init(count: Int, name: String, body: @escaping @Sendable (Int) -> Void) {
        self.count = count
        for index in 0..<count {
            group.enter()
            let thread = Thread { [group] in
                body(index)
                group.leave()
            }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Blocks until every thread's body has returned.
    package func wait() { group.wait() }
}

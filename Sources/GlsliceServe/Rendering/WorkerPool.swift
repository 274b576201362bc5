import Foundation
import GlsliceKit
import ServiceLifecycle

/// Admission control in front of the render threads: a bounded number of
/// renders may wait, and past that `submit` says no at once, so the server
/// answers 503 rather than letting requests pile up in memory. The threads
/// are the engine's `WorkerThreads`; on a GPU they share one `GPUDrawThread`
/// and encode on their own, so no thread holds a GL context of its own.
/// A `Service`: the application's service group stops it after the server has
/// drained.
final class WorkerPool: Service, Sendable {
    typealias Job = @Sendable () -> Void

    /// Admission counts: what waits for a thread and what runs.
    private struct Load {
        var waiting = 0
        var running = 0
        var stopping = false
    }

    let workers: Int
    let queueLimit: Int
    private let load_ = Locked(Load())
    /// Never full: admission is decided by `submit`, so a push never blocks.
    private let jobs = BoundedQueue<Job>(capacity: Int(Int32.max))
    private let threads: WorkerThreads
    /// Run once at shutdown before the queue closes (the GPU thread's last answers still need the threads).
    private let beforeStopping: @Sendable () -> Void

    init(workers: Int, queueLimit: Int, beforeStopping: @escaping @Sendable () -> Void = {}) {
        self.workers = workers
        self.queueLimit = queueLimit
        self.beforeStopping = beforeStopping
        let jobs = self.jobs, load = self.load_
        threads = WorkerThreads(count: workers, name: "glslice-rend") { _ in
            while let job = jobs.pop() {
                load.withLock {
                    $0.waiting -= 1
                    $0.running += 1
                }
                job()
                load.withLock { $0.running -= 1 }
            }
        }
    }

    /// Queues `job`; false when `queueLimit` jobs already wait with no thread
    /// free for them (jobs an idle thread is about to take are not waiting).
    func submit(_ job: @escaping Job) -> Bool {
        let admitted = load_.withLock { load -> Bool in
            let idle = max(0, workers - load.running)
            guard !load.stopping, load.waiting < queueLimit + idle else { return false }
            load.waiting += 1
            return true
        }
        guard admitted else { return false }
        if jobs.push(job) { return true }
        load_.withLock { $0.waiting -= 1 } // closed in between: shutting down
        return false
    }

    /// Runs `work` on a render thread under the same admission as a render:
    /// nil, at once, when the queue is full or the server is stopping (a 503).
    /// The preview endpoints read and decode sources here, never on the HTTP
    /// executor.
    func perform<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let admitted = submit { continuation.resume(returning: work()) }
            if !admitted { continuation.resume(returning: nil) }
        }
    }

    /// Queues the rest of a job that was admitted already (its encoding, once the
    /// GPU has drawn it): no admission check, since refusing it now would waste
    /// the work done. False only while stopping.
    func resume(_ job: @escaping Job) -> Bool {
        load_.withLock { $0.waiting += 1 }
        if jobs.push(job) { return true }
        load_.withLock { $0.waiting -= 1 }
        return false
    }

    /// Jobs waiting for a thread, and jobs being rendered.
    var load: (queued: Int, running: Int) { load_.withLock { ($0.waiting, $0.running) } }

    /// Runs until graceful shutdown, then lets the queued renders finish.
    func run() async throws {
        try? await gracefulShutdown()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                self.shutdown()
                done.resume()
            }.start()
        }
    }

    /// Lets the threads finish what is queued, then end; waits for them.
    func shutdown() {
        let first = load_.withLock { load -> Bool in
            defer { load.stopping = true }
            return !load.stopping
        }
        guard first else { return }
        beforeStopping()
        jobs.close()
        threads.wait()
    }
}

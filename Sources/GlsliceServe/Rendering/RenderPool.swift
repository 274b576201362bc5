import Foundation
import GlsliceKit

/// A fixed set of render threads, each with its own backend (a GL context
/// lives on the thread that made it), fed from a queue of bounded length.
/// Past the bound `submit` says no at once, so the server answers 503 rather
/// than letting requests pile up in memory.
final class RenderPool: Sendable {
    /// Work for one thread: it gets that thread's backend.
    typealias Job = @Sendable (Backend) -> Void

    private struct State {
        var pending: [Job?] = []
        var head = 0
        var stopping = false
        var running = 0
        var depth: Int { pending.count - head }
    }

    let workers: Int
    let queueLimit: Int
    /// What the threads render with: `cpu`, or `gpu (RENDERER)`.
    let backendDescription: String
    /// `cpu` or `gpu`: part of every job digest.
    let backendKind: String
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()

    /// Starts `workers` threads and waits until each has its backend; throws
    /// the first one's failure (then no thread is left running).
    init(workers: Int, queueLimit: Int, backend choice: BackendChoice, device: Int?,
         warn: @escaping @Sendable (String) -> Void) throws {
        self.workers = workers
        self.queueLimit = queueLimit
        let started = Locked<[Result<String, GlsliceError>]>([])
        let ready = DispatchSemaphore(value: 0)
        let warned = Locked(false)
        let state = self.state, wake = self.wake
        for index in 0..<workers {
            finished.enter()
            let thread = Thread { [finished] in
                defer { finished.leave() }
                let backend: Backend
                do {
                    backend = try Backend.make(choice, device: device) { message in
                        // One warning for the pool, not one per thread.
                        if warned.withLock({ let first = !$0; $0 = true; return first }) { warn(message) }
                    }
                    started.withLock { $0.append(.success(backend.description)) }
                } catch {
                    let failure = error as? GlsliceError ?? GlsliceError(.unavailable, "\(error)")
                    started.withLock { $0.append(.failure(failure)) }
                    ready.signal()
                    return
                }
                ready.signal()
                while true {
                    wake.wait()
                    let job: Job? = state.withLock { state in
                        guard state.head < state.pending.count else { return nil }
                        let job = state.pending[state.head]
                        state.pending[state.head] = nil
                        state.head += 1
                        if state.head > 1024, state.head * 2 > state.pending.count {
                            state.pending.removeFirst(state.head)
                            state.head = 0
                        }
                        state.running += 1
                        return job
                    }
                    guard let job else { return } // woken to stop
                    job(backend)
                    state.withLock { $0.running -= 1 }
                }
            }
            thread.name = "glslice-render-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<workers { ready.wait() }
        let results = started.withLock { $0 }
        if let failure = results.lazy.compactMap({ if case .failure(let e) = $0 { e } else { nil } }).first {
            state.withLock { $0.stopping = true }
            for _ in 0..<workers { wake.signal() }
            finished.wait()
            throw failure
        }
        let description = results.lazy.compactMap { try? $0.get() }.first ?? "cpu"
        backendDescription = description
        backendKind = description.hasPrefix("gpu") ? "gpu" : "cpu"
    }

    /// Queues `job`; false when `queueLimit` jobs already wait with no thread
    /// free for them (jobs an idle thread is about to take are not waiting).
    func submit(_ job: @escaping Job) -> Bool {
        let taken = state.withLock { state -> Bool in
            let idle = max(0, workers - state.running)
            guard !state.stopping, state.depth < queueLimit + idle else { return false }
            state.pending.append(job)
            return true
        }
        if taken { wake.signal() }
        return taken
    }

    /// Jobs waiting for a thread, and jobs being rendered.
    var load: (queued: Int, running: Int) { state.withLock { ($0.depth, $0.running) } }

    /// Lets the threads finish what is queued, then end; waits for them.
    func shutdown() {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        for _ in 0..<workers { wake.signal() }
        finished.wait()
    }
}

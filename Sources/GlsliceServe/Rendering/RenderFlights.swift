import Foundation
import GlsliceKit

/// Identical renders in flight, coalesced: the first request for a key starts
/// the render, later ones join it, and every one is answered with its result.
/// Each request waits at most its timeout on its own: then it alone is
/// refused, and the render goes on for the others and for retries (which join
/// it rather than start another). The timeout is a child task, cancelled as
/// soon as the answer comes.
final class RenderFlights<Value: Sendable>: Sendable {
    typealias Outcome = Result<Value, Refusal>
    private typealias Waiter = CheckedContinuation<Outcome, Never>

    private struct Flight {
        var id: UInt64
        /// Each waiting request by its own number: it may time out alone.
        var waiters: [UInt64: Waiter]
    }

    private let state = Locked((flights: [String: Flight](), nextID: UInt64(0)))

    /// What befell a request besides its answer, told as it happens (metrics).
    enum Event { case coalesced, timedOut }

    /// Waits for the render of `key`: joins the one in flight, or starts one
    /// with `start` (given the flight's id; false when it could not be queued,
    /// and the flight is answered `notStarted`). Past `timeout` this request
    /// is answered `timedOut`.
    func join(_ key: String, timeout: Duration, timedOut: Refusal, notStarted: Refusal,
              told: @escaping @Sendable (Event) -> Void,
              start: @escaping @Sendable (UInt64) -> Bool) async -> Outcome {
        let waiter = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskGroup(of: Outcome?.self) { group -> Outcome in
            group.addTask {
                await withCheckedContinuation { (continuation: Waiter) in
                    let (flight, isNew) = self.state.withLock { state -> (UInt64, Bool) in
                        if let flight = state.flights[key] {
                            state.flights[key]?.waiters[waiter] = continuation
                            return (flight.id, false)
                        }
                        state.flights[key] = Flight(id: waiter, waiters: [waiter: continuation])
                        return (waiter, true)
                    }
                    if !isNew { told(.coalesced) }
                    if isNew && !start(flight) { self.finish(key, id: flight, .failure(notStarted)) }
                }
            }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return nil } // the answer came first
                if self.expire(key, waiter: waiter, timedOut) { told(.timedOut) }
                return nil
            }
            for await result in group {
                if let result {
                    group.cancelAll()
                    return result
                }
            }
            return .failure(notStarted) // not reached: the waiter is always answered
        }
    }

    /// Whether flight `id` of `key` still has someone waiting; a flight nobody
    /// waits for any more (all timed out while queued) is dropped, its work skipped.
    func isWanted(_ key: String, id: UInt64) -> Bool {
        state.withLock { state in
            guard let flight = state.flights[key], flight.id == id else { return false }
            if flight.waiters.isEmpty { state.flights[key] = nil }
            return !flight.waiters.isEmpty
        }
    }

    /// Answers everyone waiting on flight `id` of `key`.
    func finish(_ key: String, id: UInt64, _ outcome: Outcome) {
        let waiters = state.withLock { state -> [Waiter] in
            guard let flight = state.flights[key], flight.id == id else { return [] }
            state.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Answers one waiter of `key` with `refusal`; false when it was answered already.
    private func expire(_ key: String, waiter: UInt64, _ refusal: Refusal) -> Bool {
        let continuation = state.withLock { $0.flights[key]?.waiters.removeValue(forKey: waiter) }
        continuation?.resume(returning: .failure(refusal))
        return continuation != nil
    }
}

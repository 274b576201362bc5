import Foundation
import GlsliceKit

/// The bytes of answers being written, capped: a client that asks for large
/// renders and never reads them holds at most this much of the server's
/// memory; past it a render answer is a 503. Each answer's bytes are held
/// from the moment it is handed to its connection until written or dropped.
final class AnswerBudget: Sendable {
    let capacity: Int
    private let state = Locked((bytes: 0, answers: 0, peakBytes: 0, held: 0))

    init(capacity: Int) { self.capacity = capacity }

    /// Holds `bytes`; false when that would pass the cap (one answer alone is
    /// always let through when nothing else is held, however large).
    func reserve(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard state.answers == 0 || state.bytes + bytes <= capacity else { return false }
            state.bytes += bytes
            state.answers += 1
            state.held += 1
            state.peakBytes = max(state.peakBytes, state.bytes)
            return true
        }
    }

    func release(_ bytes: Int) {
        state.withLock {
            $0.bytes -= bytes
            $0.answers -= 1
        }
    }

    /// Answers ever held, and the most bytes held at once (for tests and metrics).
    var history: (held: Int, peakBytes: Int) { state.withLock { ($0.held, $0.peakBytes) } }

    /// Answers still being written, and their bytes.
    var inFlight: (answers: Int, bytes: Int) { state.withLock { ($0.answers, $0.bytes) } }

    /// Waits until every answer is written or `deadline` passes; the answers left.
    func drain(until deadline: ContinuousClock.Instant) async -> Int {
        while ContinuousClock.now < deadline {
            let left = inFlight.answers
            if left == 0 { return 0 }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return inFlight.answers
    }
}

import Foundation
import GlsliceKit
import NIOCore

/// The bytes of answers being written, capped: a client that asks for large
/// renders and never reads them holds at most this much of the server's
/// memory; past it a render answer is a 503. Each answer's bytes are held
/// from the moment it is handed to its connection until written or dropped.
final class AnswerBudget: Sendable {
    let capacity: Int
    private let state = Locked((bytes: 0, answers: 0, peakBytes: 0, held: 0, drainStarted: ContinuousClock.Instant?.none, cutOff: 0, writing: 0, connectionsCutOff: 0))

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

    /// Holds `bytes` of work memory (a WebP being encoded) against the same
    /// cap; false when it does not fit beside what is held (nothing is let through).
    func reserveEncoding(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard state.bytes + bytes <= capacity else { return false }
            state.bytes += bytes
            state.peakBytes = max(state.peakBytes, state.bytes)
            return true
        }
    }

    func releaseEncoding(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { $0.bytes -= bytes }
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

    /// From SIGTERM on, an answer that fails to be written counts as cut off
    /// (before it, a failed write is a client that went away).
    func beginDraining() { state.withLock { $0.drainStarted = .now } }

    /// Connections whose close waits for their queued writes (`PendingWritesHandler`).
    private let holding = Locked((released: false, channels: [ObjectIdentifier: any Channel]()))

    /// False once the drain's time is up: closes then go through at once.
    var mayHoldCloses: Bool { !holding.withLock { $0.released } }

    func holdingClose(_ channel: any Channel, _ held: Bool) {
        holding.withLock { $0.channels[ObjectIdentifier(channel)] = held ? channel : nil }
    }

    /// The drain's time is up: every held close goes through, cutting those answers off.
    func releaseHeldCloses() {
        let channels = holding.withLock { state -> [any Channel] in
            state.released = true
            return Array(state.channels.values)
        }
        for channel in channels { channel.close(promise: nil) }
    }

    /// When the drain began (SIGTERM), if it has.
    var drainStarted: ContinuousClock.Instant? { state.withLock { $0.drainStarted } }

    var isDraining: Bool { drainStarted != nil }

    /// An answer stopped before its last byte was handed to the kernel.
    func answerFailed() { state.withLock { if $0.drainStarted != nil { $0.cutOff += 1 } } }

    /// A connection's queued write failed during the drain (once per connection).
    func connectionCutOff() { state.withLock { $0.connectionsCutOff += 1 } }

    /// A connection has writes the kernel has not taken yet (true), or no longer (false).
    func connectionWriting(_ writing: Bool) { state.withLock { $0.writing += writing ? 1 : -1 } }

    /// Once the server has stopped: waits until no connection has writes left
    /// in NIO's queue, or `deadline`. Those still writing then are cut off
    /// when the process exits. Returns the answers cut off: an answer whose
    /// writer failed and a connection still writing are often the same one,
    /// so the larger count is given, not their sum.
    func drain(until deadline: ContinuousClock.Instant) async -> Int {
        while state.withLock({ $0.writing }) > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return state.withLock { max($0.cutOff, $0.connectionsCutOff + $0.writing) }
    }
}

import Foundation

/// The GPU side of `HybridScheduler`: one thread makes calls, dispatches each
/// job of a call, and hands each one on (delivered, done or declined).
extension HybridScheduler {
    /// The GPU's next call, sized by `HybridCallSizer`; empty once closed with
    /// nothing the GPU should take. While fewer jobs wait than the call may take,
    /// it gathers: it waits for more while each comes within `gap`, for at most
    /// `gather`; the jobs stay in the pool meanwhile, for any worker to take.
    package func nextGPUCall(gather: Duration = .zero, gap: Duration = .zero) -> [Claim] {
        endCall()
        condition.lock()
        defer { condition.unlock() }
        var gatherUntil: Date?
        while true {
            if state.gpuGone { return [] }
            guard let firstTicket = state.pending.first, let first = state.entries[firstTicket] else {
                if state.closed { return [] }
                gatherUntil = nil
                condition.wait()
                continue
            }
            guard let allowed = state.sizer.callCost(pending: state.pendingCost, first: first.cost) else {
                // The CPU side finishes what waits sooner: wait for more work, or for the end.
                if state.closed { return [] }
                condition.wait()
                continue
            }
            if !state.closed, state.pendingCost < allowed, (state.pending.count < state.sizer.maxJobs), gather > Duration.zero {
                let now = Date()
                let until = gatherUntil ?? now.addingTimeInterval(gather.inSeconds)
                gatherUntil = until
                let next = min(until, now.addingTimeInterval(gap.inSeconds))
                if next > now, condition.wait(until: next) { continue } // another came within the gap
            }
            let claims = state.claimCall(allowed: allowed).map { Claim(ticket: $0.0, item: item($0.1)) }
            condition.broadcast() // room to submit again
            return claims
        }
    }

    /// A guess at the GPU's speed, known once it opened (`HybridCallSizer.gpuGuess`).
    package func guessGPU(_ ratio: Double?, software: Bool = false) {
        locked {
            $0.sizer.gpuGuess = ratio
            $0.sizer.software = software
        }
    }

    /// Just before `ticket`'s GL work: false when a CPU worker took it back (skip it).
    package func dispatching(_ ticket: Ticket) -> Bool { !dispatching([ticket]).isEmpty }

    /// Just before the GL work of `tickets` together, under one lock: those still the GPU's.
    package func dispatching(_ tickets: [Ticket]) -> Set<Ticket> {
        locked { $0.dispatch(tickets) }
    }

    /// The GPU drew `ticket` (or encoded it): a CPU worker does the rest. False
    /// when it was finished already (a backup won): drop `delivered`.
    @discardableResult
    func delivered(_ ticket: Ticket, _ delivered: Delivered) -> Bool {
        let kept: Bool = locked { state in
            guard state.entries[ticket] != nil else { return false }
            state.entries[ticket]?.holder = .delivered
            rests.append((ticket, delivered)) // under the same lock
            return true
        }
        if kept {
            condition.broadcast()
            onCPUWork?()
        }
        return kept
    }

    /// The GPU finished `ticket` whole. True: it won, so the caller records it.
    package func gpuDone(_ ticket: Ticket) -> Bool { gpuDone([ticket])[0] }

    /// The GPU finished `tickets` whole, under one lock (a call's outputs together):
    /// for each, whether it won.
    package func gpuDone(_ tickets: [Ticket]) -> [Bool] {
        let won: [Bool] = locked { state in tickets.map { state.finish($0, gpuDrew: true) } }
        condition.broadcast()
        return won
    }

    /// The GPU will not finish `ticket` (too large to draw without a CPU worker
    /// waiting on it, or its GL work failed): a CPU worker draws it whole, unless
    /// a backup of it runs already.
    func declined(_ ticket: Ticket) {
        if locked({ $0.decline(ticket) }) {
            condition.broadcast()
            onCPUWork?()
        }
    }

    /// The GPU's current call, if any, has ended: its time feeds the sizer.
    package func endCall() {
        locked { $0.endCall() }
    }
}

extension HybridScheduler {
    /// The GPU side has stopped (its input ended, or it could not go on): what it
    /// still holds goes to the CPU workers, and it takes no more calls.
    package func gpuEnded() {
        let held: [Ticket] = locked { state in
            state.gpuGone = true
            state.call = nil
            return state.gpuHeld.filter { state.holds($0) }
        }
        for ticket in held { declined(ticket) }
        condition.broadcast()
    }
}

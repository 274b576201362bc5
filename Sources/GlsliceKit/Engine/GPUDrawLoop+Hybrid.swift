/// The hybrid's GPU side (issue 68), for batch's draw stage and serve's GPU thread alike.
extension GPUDrawLoop {
    /// Draws the calls `scheduler` makes until it makes an empty one: each job is claimed
    /// just before its GL work, delivered to the scheduler once drawn (or encoded), and
    /// handed back to the CPU when the GPU would only stream it or its GL work failed.
    func run<Job>(hybrid scheduler: HybridScheduler<Job, Drawing>, job: @escaping (Job) -> PreparedJob,
                  gather: Duration = .zero, gap: Duration = .zero) throws where Item == HybridScheduler<Job, Drawing>.Claim {
        let feed = GPUFeed<Item>(next: { scheduler.nextGPUCall(gather: gather, gap: gap) },
                                 dispatching: { claims in
                                     let kept = scheduler.dispatching(claims.map(\.ticket))
                                     return claims.filter { kept.contains($0.ticket) }
                                 },
                                 decline: { scheduler.declined($0.ticket) })
        try run(feed, job: { job($0.item) }) { claim, drawn in
            switch drawn {
            case .success(let drawing): scheduler.delivered(claim.ticket, drawing)
            case .failure: scheduler.declined(claim.ticket) // the GPU's error: the CPU draws it, and its error is the job's
            }
        }
    }
}

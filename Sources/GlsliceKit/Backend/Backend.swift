/// A backend ready to draw: the CPU, or a GPU session. Not `Sendable`: a GPU
/// backend lives on the thread that opened it. `BackendResolution.resolve` decides which
/// one a front end gets; `drawer(_:source:)` is the only place a drawer is made.
package enum Backend {
    case cpu
    case gpu(GPUSession)

    /// The drawer for `plan` over `source`: the CPU's, or the plan's cells uploaded to the GPU.
    /// `taps`: the plan's taps where the job's repeat map was made from them (both drawers take them).
    func drawer(_ plan: Plan, source: PremultipliedImage, taps: PlanTaps? = nil) throws -> any Drawer {
        switch self {
        case .cpu: CPUDrawer(plan: plan, source: source, taps: taps)
        case .gpu(let session): try Self.gpuDrawer(plan, source: source, taps: taps, on: session)
        }
    }

    /// A GPU drawer, for the GPU's own loops (atlases, strip streams, GPU encoding) that draw
    /// with its GL calls: `plan`'s cells uploaded to `session`, cached under `key` (the source's).
    static func gpuDrawer(_ plan: Plan, source: PremultipliedImage, key: SourceKey? = nil, taps: PlanTaps? = nil,
                          on session: GPUSession) throws -> GPUDrawer {
        try session.upload(plan, source: source, sourceKey: key, taps: taps)
    }

    /// Draws `plan` into memory, strip by strip as the engine does (parity, the asset tools, tests).
    package func image(_ plan: Plan, source: PremultipliedImage, strips: Strips = Strips()) throws -> PremultipliedImage {
        let collector = PixelCollector(size: plan.size)
        try strips.draw(drawer(plan, source: source), size: plan.size, into: collector)
        return collector.image
    }

    /// The GPU session, when this is the GPU backend.
    package var gpu: GPUSession? {
        if case .gpu(let session) = self { return session }
        return nil
    }

    /// The kind of this backend (what `batch --stats` and `/healthz` report).
    package var kind: BackendKind { gpu == nil ? .cpu : .gpu }

    /// Opens a GPU session on this thread. With `acceptSoftware` false (`auto`),
    /// a software rasteriser is declined with `auto`'s reason (`Declined`).
    /// `gpuEncoding` forces GPU encoding on or off (nil: the context's default).
    static func openSession(device: Int?, memory: GPUMemory = GPUMemory(), acceptSoftware: Bool = true,
                            gpuEncoding: Bool? = nil) throws -> GPUSession {
        let context = try GPUContext.make(device: device)
        try admit(context, acceptSoftware: acceptSoftware)
        return try GPUSession(context: context, memory: memory, gpuEncoding: gpuEncoding)
    }

    /// Throws `Declined` when `context` is a software rasteriser (llvmpipe,
    /// softpipe, swrast: slower than the CPU backend, and larger) and
    /// `acceptSoftware` is false: `auto`'s one rule for GL.
    static func admit(_ context: GPUContext, acceptSoftware: Bool) throws {
        guard !acceptSoftware, context.isSoftware else { return }
        throw Declined(reason: "GL here is \(context.renderer), a software rasteriser: rendering on the CPU, which is faster (--backend gpu forces GL)")
    }

    /// Thrown by an opener asked not to accept software GL (`auto`), with the reason.
    struct Declined: Error, Sendable {
        package var reason: String
    }
}

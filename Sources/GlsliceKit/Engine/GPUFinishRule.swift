/// What a GPU session finishes without a CPU worker waiting on it (the hybrid's
/// rule, issue 68), as a value any thread may ask: outputs small enough for an
/// atlas (drawn and read back in one go), and PNGs its compute encoder takes.
/// The hybrid gives the rest to the CPU from the start, so no worker waits on a
/// strip stream while jobs remain to draw.
package struct GPUFinishRule: Sendable {
    var atlasSide: Int
    /// The session's compute encoder compiled and passed its self-check.
    var encodes: Bool
    var maxEncodeWidth: Int
    var wholeEncodingPixels: Int
    /// The GPU's seconds over one CPU core's for the same outputs, from the encoder's
    /// self-check (small images, so it leans slow): the hybrid's guess until a call is timed.
    package var speedGuess: Double?
    /// A software rasteriser (llvmpipe), drawing on the CPU's own cores.
    package var software = false

    /// Readies `session` on its GL thread, before a run's clock starts as the context
    /// is opened before it: its compute encoder made and self-checked, and a tiny
    /// output drawn (`warmUp`). Then reads what it finishes.
    init(readying session: GPUSession) {
        let (encodes, guess) = session.readyEncoder()
        Self.warmUp(session)
        atlasSide = GPUAtlas<Int>.side(for: session)
        self.encodes = encodes
        maxEncodeWidth = session.effectiveTarget.width
        wholeEncodingPixels = session.wholeEncodingPixels
        speedGuess = guess
        software = session.context.isSoftware
    }

    func finishes(_ job: PreparedJob) -> Bool {
        let size = job.size
        if size.width <= atlasSide && size.height <= atlasSide { return true }
        return encodes && GPUSession.encodable(job.request.format ?? .png, job.request.compression, size: size,
                                               maxWidth: maxEncodeWidth, wholePixels: wholeEncodingPixels)
    }

    /// The hybrid's one routing rule, batch's and serve's: whether the CPU takes `job` from the
    /// start. It does where the GPU cannot draw the source (`limits` refuse it: decided before any
    /// GL call, so a job never succeeds or fails by which side took it), where the GPU would only
    /// stream it to a waiting worker (`rule` says it does not finish it), and where the job must run
    /// once (serve's WebP, whose encoding memory is held once, is never run twice).
    package static func cpuOnly(_ job: PreparedJob, limits: GPUContext.GLLimits?, rule: GPUFinishRule?, runsOnce: Bool = false) -> Bool {
        let image = job.source.image
        return runsOnce || limits?.refusal(sourceWidth: image.width, sourceHeight: image.height) != nil || rule?.finishes(job) == false
    }

    /// Draws a tiny output in an atlas, as a run's small outputs are, and drops it:
    /// a driver such as llvmpipe compiles its shader variants at the first draw,
    /// which would otherwise land in a run's first call (tens of milliseconds of CPU).
    /// A failure here is left for the first job to report.
    static func warmUp(_ session: GPUSession) {
        let image = PremultipliedImage(RGBAImage(width: 3, height: 3, pixels: [UInt8](repeating: 255, count: 36)))
        let source = ResolvedSource(source: SourceImage(image: image, file: "warm-up"),
                                    key: SourceKey(contentHash: "glslice:warm-up", recipe: .plain))
        let request = RenderRequest(size: .pixels(PixelSize(width: 4, height: 4)), insets: Insets(top: 1, left: 1, bottom: 1, right: 1))
        guard let job = try? PreparedJob(request: request, source: source, limits: Limits()),
              let atlas = try? GPUAtlas<Int>(session: session, ring: nil, deliver: { _, _ in }) else { return }
        _ = atlas.place([0], size: { _ in job.size }, upload: { _ in
            try Backend.gpuDrawer(job.plan, source: image, key: source.key, taps: job.taps, on: session)
        }, failed: { _, _ in })
        atlas.flush()
        atlas.finish()
    }
}

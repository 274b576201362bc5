/// One job made ready to draw: request + source → plan + digest, the same
/// whichever backend draws it. Every front end (render, batch, serve, parity, the asset
/// tools) comes through here, and `PlanBuilder` behind it is the only code
/// that builds a plan.
package struct PreparedJob: Sendable {
    /// Set once: the digest worked out as the job was prepared follows it (`written(as:)` works it out again).
    package private(set) var request: RenderRequest
    package private(set) var source: ResolvedSource
    package private(set) var plan: Plan
    /// The one opacity rule, the same on every backend: RGB when the plan
    /// covers every output pixel with an opaque source; else RGBA (or a palette).
    /// It is known before drawing, so large outputs can stream. Worked out once, as the
    /// job is prepared (a `space` span's cover is counted a pixel at a time).
    let isOpaque: Bool
    /// The repeat map made ahead by `prepareAhead()`, where a job is prepared for encoding.
    private var preparedRepeats: RepeatMap?
    /// The digest made ahead by `prepareDigest()`.
    private var preparedDigest: String?
    /// The plan's whole-axis taps (the repeat map is made from them), for the drawer (CPU or GPU)
    /// to take rather than work out again; nil until `prepareAhead()`.
    package private(set) var taps: PlanTaps?

    package init(request: RenderRequest, source: ResolvedSource, limits: Limits) throws {
        self.request = request
        self.source = source
        plan = try PlanBuilder.plan(request, source: source.source, limits: limits)
        isOpaque = plan.coversEveryPixel && source.isOpaque
    }

    /// A job whose plan was built elsewhere: parity's random jobs, whose plans carry strips,
    /// column chunks and fills no request says. Written as a PNG of glslice's deflate.
    package init(plan: Plan, source: ResolvedSource) {
        self.request = RenderRequest(size: .pixels(plan.size))
        self.source = source
        self.plan = plan
        isOpaque = plan.coversEveryPixel && source.isOpaque
    }

    /// What repeats in the output, for glslice's deflate (`.none` for the zlib levels and WebP):
    /// the map `prepareAhead()` made, else made now.
    var repeats: RepeatMap { preparedRepeats ?? Self.repeats(request, plan: plan, source: source) }

    /// Makes the job's taps (every job: both drawers take them) and, for glslice's deflate, its
    /// repeat map now, on the thread that prepares the job (batch's prepare stage, serve's render
    /// thread), so the GPU thread that draws or encodes it never does (issue 52). Preparing does
    /// the same planning whatever the compression: only the map is the encoder's. Jobs that are
    /// only drawn (a contact sheet's) never make either.
    package mutating func prepareAhead() {
        let taps = PlanTaps(plan)
        preparedRepeats = Self.readsRepeats(request)
            ? RepeatMap(plan: plan, classes: source.lineClasses, taps: taps).keepingRowKeys(height: plan.size.height) : RepeatMap.none
        self.taps = taps
    }

    private static func readsRepeats(_ request: RenderRequest) -> Bool {
        (request.format ?? .png) == .png && request.compression.readsPlanRepeats
    }

    private static func repeats(_ request: RenderRequest, plan: Plan, source: ResolvedSource) -> RepeatMap {
        readsRepeats(request) ? RepeatMap(plan: plan, classes: source.lineClasses) : .none
    }

    /// The digest an output records (tEXt `glslice-job`, a WebP's XMP), and
    /// serve's ETag: the one `prepareDigest()` worked out, else worked out when asked, so a lone
    /// `render` never makes it.
    package var digest: String { preparedDigest ?? JobDigest.make(sourceKey: source.key, request: request) }

    /// Works out the digest now, where a batch job is prepared: `Stage.prepare` counts the digest,
    /// and the encoder that records it then finds it made (it was about 5% of the encode stage on
    /// the bench manifest).
    mutating func prepareDigest() {
        preparedDigest = JobDigest.make(sourceKey: source.key, request: request)
    }

    package var size: PixelSize { plan.size }

    /// The same job written as `format` (serve's fallback to PNG where a
    /// negotiated WebP cannot hold the output); the digest follows it.
    package func written(as format: ImageFormat) -> PreparedJob {
        var job = self
        job.request.format = format
        if preparedRepeats != nil { job.prepareAhead() }
        if preparedDigest != nil { job.prepareDigest() }
        return job
    }
}

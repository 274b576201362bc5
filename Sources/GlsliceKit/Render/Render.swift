import Foundation

/// One job from a path to a PNG or WebP, the engine's stages in one thread:
/// resolve → prepare → draw → encode. `render`, serve's CPU answers and the
/// asset tools come here; a batch runs the same stages on many threads.
public enum Render {
    /// What one render produced.
    public struct Result: Sendable {
        public var size: PixelSize
        /// Bytes written.
        public var bytes: Int
    }

    /// Renders `input` to `output`, streaming bands of rows into the encoder.
    /// The backend is opened only once the source and the plan are known to be
    /// good, so bad input is refused before any backend warning.
    @discardableResult
    package static func run(input: String, output: OutputTarget, request: RenderRequest, limits: Limits = Limits(),
                           backend: @autoclosure () throws -> Backend = .cpu, banding: Banding = Banding()) throws -> Result {
        try run(input: input, output: output, request: request, limits: limits, banding: banding, ninePatch: false,
                warn: { _ in }) { _ in try backend() }
    }

    /// Renders the PNG, `.9.png` or `.imageset` at `input` to the file `output`
    /// (`-` is standard input and output), drawing with `backend`: PNG, or
    /// lossless WebP when `request.format` or the name says so (`.jpg` is refused).
    /// The file appears only whole; on any failure nothing is left at `output`.
    /// - Parameters:
    ///   - ninePatch: read `input`'s 1-px border as nine-patch markers whatever its name says.
    ///   - warn: told of anything worth a word that is not an error (a lookalike nine-patch on stdin).
    /// - Throws: `GlsliceError`, its `kind` saying whose fault it is.
    @discardableResult
    public static func run(input: String, output: String, request: RenderRequest, limits: Limits = Limits(),
                           backend: BackendChoice = .auto, ninePatch: Bool = false,
                           warn: (String) -> Void = { _ in }) throws -> Result {
        try run(input: input, output: OutputTarget(output), request: request, limits: limits, choice: backend,
                device: nil, ninePatch: ninePatch, warn: warn)
    }

    /// `run` with the backend `choice` opened for this output's size (see
    /// `Backend.singleRenderGPUPixels`), once the source and plan are known good.
    /// `ninePatch` reads the input's border as markers whatever its name (standard input).
    @discardableResult
    package static func run(input: String, output: OutputTarget, request: RenderRequest, limits: Limits = Limits(),
                           choice: BackendChoice, device: Int?, ninePatch: Bool = false,
                           warn: (String) -> Void) throws -> Result {
        try run(input: input, output: output, request: request, limits: limits, banding: Banding(),
                ninePatch: ninePatch, warn: warn) { size in
            // Why `auto` fell back to the CPU is said by `doctor` and at the start of a batch, not on every render.
            try Backend.make(choice, device: device, singleOutput: size)
        }
    }

    private static func run(input: String, output: OutputTarget, request: RenderRequest, limits: Limits,
                            banding: Banding, ninePatch: Bool, warn: (String) -> Void,
                            backend: (PixelSize) throws -> Backend) throws -> Result {
        // Settled before anything is read: `-o x.jpg` is refused, `-o x.webp` is WebP.
        var request = request
        request.format = try request.outputFormat(for: output.displayName)
        let source = try ResolvedSource.load(input: input, outputScale: request.outputScale,
                                             maxPixels: limits.maxSourcePixels, ninePatch: ninePatch)
        if source.source.hints.looksLikeNinePatch { warn(NinePatch.unnamedWarning) }
        let job = try PreparedJob(request: request, source: source, limits: limits)
        do {
            let renderer = try backend(job.size).prepare(job.plan, source: source.image)
            let encoded = try EncodeStep.encode(job, bands: renderer, to: .output(output), banding: banding)
            return Result(size: job.size, bytes: encoded.byteCount)
        } catch let error as GlsliceError {
            throw error.about(input)
        }
    }

    /// Draws `plan` into memory, band by band as the encode step does (parity, tests).
    package static func image(plan: RenderPlan, source: PremultipliedImage, backend: Backend,
                             banding: Banding = Banding()) throws -> PremultipliedImage {
        let sink = ImageSink(size: plan.size)
        try banding.render(backend.prepare(plan, source: source), size: plan.size, into: sink)
        return sink.image
    }
}

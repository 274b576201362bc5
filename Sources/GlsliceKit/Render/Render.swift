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

    /// Renders the PNG, `.9.png` or `.imageset` at `input` to the file `output`
    /// (`-` is standard input and output): PNG, or lossless WebP when
    /// `request.format` or the name says so (`.jpg` is refused). Strips of rows
    /// stream into the encoder. The backend is opened only once the source and
    /// the plan are known good (bad input is refused before any backend
    /// warning), for this output's size (`BackendUse.oneOutput`). The
    /// file appears only whole; on any failure nothing is left at `output`.
    /// - Parameters:
    ///   - device: the EGL device to draw on (nil: the first hardware one).
    ///   - ninePatch: read `input`'s 1-px border as nine-patch markers whatever its name says.
    ///   - warn: told of anything worth a word that is not an error (a lookalike nine-patch on stdin).
    ///   - tell: told where the output was drawn and encoded (`render --verbose`).
    ///   - gpuEncoding: encode on the GPU or not (`GLSLICE_GPU_ENCODE`; nil: on hardware GPUs).
    /// - Throws: `GlsliceError`, its `kind` saying whose fault it is.
    @discardableResult
    public static func run(input: String, output: String, request: RenderRequest, limits: Limits = Limits(),
                           backend: BackendChoice = .auto, device: Int? = nil, ninePatch: Bool = false,
                           warn: (String) -> Void = { _ in }, tell: (String) -> Void = { _ in },
                           gpuEncoding: Bool? = nil) throws -> Result {
        let target = OutputTarget(output)
        // Settled before anything is read: `-o x.jpg` is refused, `-o x.webp` is WebP.
        var request = request
        request.format = try request.outputFormat(for: target.displayName)
        // One render records no digest, so its source is not hashed.
        let source = try ResolvedSource.load(input: input, outputScale: request.outputScale,
                                             maxPixels: limits.maxSourcePixels, ninePatch: ninePatch, keyed: false)
        if source.source.hints.looksLikeNinePatch { warn(NinePatch.unnamedWarning) }
        let job = try PreparedJob(request: request, source: source, limits: limits)
        do {
            // Why `auto` took the CPU (no context, or only llvmpipe) is said by `doctor`, never as a warning here.
            let resolved = try BackendResolution.resolve(backend, for: .oneOutput(job.size), device: device, gpuEncoding: gpuEncoding)
            let encoded = try Engine.encode(job, drawing: try drawing(job, on: resolved.backend, tell: tell), backend: resolved.backend, to: target)
            return Result(size: job.size, bytes: encoded.byteCount)
        } catch let error as GlsliceError {
            throw error.about(input)
        }
    }

    /// Where the output's strips come from: the GPU's compute encoder, which takes a PNG of
    /// glslice's deflate drawn there (a giant a strip at a time) and gives its image data with
    /// the CPU's bytes (issue 52); else drawn `.here`, on `backend`, and encoded on the CPU. An
    /// output the GPU's encoder cannot take or fails (llvmpipe's loop limit, a GL error) is drawn
    /// again for the CPU (`GPUSession.encodeElseCPU`).
    private static func drawing(_ job: PreparedJob, on backend: Backend, tell: (String) -> Void) throws -> Drawing {
        guard let gpu = backend.gpu, gpu.encodes(job.request.format ?? .png, job.request.compression, size: job.size) else {
            tell("\(job.size.width)x\(job.size.height) drawn on the \(backend.gpu == nil ? "CPU" : "GPU"), encoded on the CPU")
            return .here
        }
        switch gpu.encodeElseCPU([job.encodingOnGPU(gpu)], times: nil)[0] {
        case .success(let data):
            tell("\(job.size.width)x\(job.size.height) drawn and encoded on the GPU (compute shaders)")
            return .encoded(data)
        case .failure(let error):
            // The one "GPU, else CPU" policy: an output the GPU's encoder fails is encoded on the CPU, never failed.
            let why = (error as? GlsliceError)?.message ?? "\(error)"
            tell("\(job.size.width)x\(job.size.height) drawn on the GPU, encoded on the CPU (the GPU's encoder: \(why))")
            return .here
        }
    }
}

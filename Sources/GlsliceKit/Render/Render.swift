import Foundation

/// The pipeline of one job, the flow of the whole package in one place:
/// source → plan → backend → PNG.
public enum Render {
    /// What one render produced.
    public struct Result: Sendable {
        public var size: PixelSize
        /// PNG bytes written.
        public var bytes: Int
    }

    /// Renders `input` to `output`, streaming bands of rows into the encoder.
    /// The backend is opened only once the source and the plan are known to be
    /// good, so bad input is refused before any backend warning.
    @discardableResult
    public static func run(input: String, output: OutputTarget, request: RenderRequest, limits: Limits = Limits(),
                           backend: @autoclosure () throws -> Backend = .cpu, banding: Banding = Banding()) throws -> Result {
        let source = try SourceResolver.resolve(path: input, outputScale: request.outputScale) {
            try SourceImage.load(path: $0, maxPixels: limits.maxSourcePixels)
        }
        let plan = try PlanBuilder.plan(request, source: source, limits: limits)
        do {
            let renderer = try backend().prepare(plan, source: source.image)
            let bytes = try encode(renderer, plan: plan, source: source.image, to: output,
                                   compression: request.compression, banding: banding)
            return Result(size: plan.size, bytes: bytes)
        } catch let error as GlsliceError {
            throw error.about(input)
        }
    }

    /// Draws a prepared plan band by band into a PNG; returns the bytes written.
    public static func encode(_ renderer: any BandRenderer, plan: RenderPlan, source: PremultipliedImage,
                              to output: OutputTarget, compression: Compression, banding: Banding = Banding(),
                              text: (key: String, value: String)? = nil) throws -> Int {
        let opaque = plan.coversEveryPixel && source.rgba.isOpaque
        let writer = try PNGWriter(target: output, size: plan.size, opaque: opaque, compression: compression, text: text)
        try banding.render(renderer, size: plan.size, into: writer)
        return try writer.finish()
    }

    /// Draws a prepared plan into PNG bytes in memory: the same bytes `run`
    /// writes to a file for the same job, for answers sent rather than stored.
    public static func pngData(_ renderer: any BandRenderer, plan: RenderPlan, source: PremultipliedImage,
                               compression: Compression, banding: Banding = Banding()) throws -> [UInt8] {
        let fd = try MemoryFile.open()
        defer { close(fd) }
        let bytes = try encode(renderer, plan: plan, source: source, to: .descriptor(fd), compression: compression,
                               banding: banding)
        return try MemoryFile.read(fd, count: bytes)
    }

    /// Draws `plan` into memory, band by band as `encode` does.
    public static func image(plan: RenderPlan, source: PremultipliedImage, backend: Backend,
                             banding: Banding = Banding()) throws -> PremultipliedImage {
        let sink = ImageSink(size: plan.size)
        try banding.render(backend.prepare(plan, source: source), size: plan.size, into: sink)
        return sink.image
    }
}

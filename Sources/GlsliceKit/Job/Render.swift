/// The render pipeline for one job: decode → plan → backend → encode.
public enum Render {
    /// What one render produced.
    public struct Result: Sendable {
        public var size: PixelSize
        /// PNG bytes written (0 for stdout).
        public var bytes: Int
    }

    /// Renders `input` to `output` on the CPU backend.
    @discardableResult
    public static func run(input: String, output: OutputTarget, options: RenderOptions) throws -> Result {
        let source = try PNGDecoder.decode(path: input, maxPixels: options.limits.maxSourcePixels).premultiplied()
        let plan = try options.plan(sourceSize: PixelSize(width: source.width, height: source.height), path: input)
        let image = CPURenderer().render(plan, source: source)
        let bytes = try PNGEncoder.write(image, to: output, compression: options.compression)
        return Result(size: plan.size, bytes: bytes)
    }
}

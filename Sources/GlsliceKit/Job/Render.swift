import Foundation

/// A backend ready to draw: the CPU reference, or a GPU context with its program.
public final class Backend: @unchecked Sendable {
    /// `cpu`, or `gpu` with the renderer string.
    public let description: String
    public let gpu: GPURenderer?

    public static let cpu = Backend(description: "cpu", gpu: nil)

    init(description: String, gpu: GPURenderer?) {
        self.description = description
        self.gpu = gpu
    }

    /// Opens the backend `choice` asks for. `auto` falls back to the CPU and
    /// calls `warn` with one line saying why; `gpu` throws `.unavailable`.
    public static func make(_ choice: BackendChoice, device: Int? = nil,
                            warn: (String) -> Void = { _ in }) throws -> Backend {
        switch choice {
        case .cpu:
            return .cpu
        case .gpu:
            let renderer = try GPURenderer(context: GPUContext.make(device: device))
            return Backend(description: "gpu (\(renderer.context.renderer))", gpu: renderer)
        case .auto:
            do {
                return try make(.gpu, device: device)
            } catch let error as GlsliceError {
                warn("no GPU backend, rendering on the CPU: \(error.message)")
                return .cpu
            }
        }
    }

    public func prepare(_ plan: RenderPlan, source: PremultipliedImage) throws -> BandRenderer {
        if let gpu { return try gpu.prepare(plan, source: source) }
        return CPURenderer.Prepared(plan: plan, source: source)
    }
}

/// How outputs are cut into bands of rows: memory is bounded by one band.
public struct Banding: Sendable {
    /// Bytes of premultiplied rows held at once.
    public var bandBytes: Int
    /// Forces at most this many rows per band (tests use it to make strips cheap).
    public var maxRows: Int?

    public init(bandBytes: Int = 32 << 20, maxRows: Int? = nil) {
        self.bandBytes = bandBytes
        self.maxRows = maxRows
    }

    public func rows(width: Int, height: Int, renderer: BandRenderer) -> Int {
        var rows = max(1, bandBytes / max(1, width * 4))
        rows = min(rows, renderer.maxBandRows, height)
        if let maxRows { rows = min(rows, max(1, maxRows)) }
        return max(1, rows)
    }
}

/// The render pipeline for one job: decode → plan → backend → encode.
public enum Render {
    /// What one render produced.
    public struct Result: Sendable {
        public var size: PixelSize
        /// PNG bytes written (0 for stdout).
        public var bytes: Int
    }

    /// Renders `input` to `output`, streaming bands of rows into the encoder.
    @discardableResult
    public static func run(input: String, output: OutputTarget, options: RenderOptions,
                           backend: Backend = .cpu, banding: Banding = Banding()) throws -> Result {
        let resolved = try SourceResolver.resolve(path: input, options: options) {
            try SourceImage.load(path: $0, maxPixels: options.limits.maxSourcePixels)
        }
        let plan = try resolved.options.plan(source: resolved.source, path: resolved.file)
        do {
            let bytes = try encode(plan: plan, source: resolved.source.image, to: output, compression: options.compression,
                                   backend: backend, banding: banding)
            return Result(size: plan.size, bytes: bytes)
        } catch let error as GlsliceError {
            throw error.about(input)
        }
    }

    /// Draws `plan` band by band into a PNG; returns the bytes written.
    public static func encode(plan: RenderPlan, source: PremultipliedImage, to output: OutputTarget,
                              compression: Compression, backend: Backend, banding: Banding = Banding(),
                              text: (key: String, value: String)? = nil) throws -> Int {
        let renderer = try backend.prepare(plan, source: source)
        let opaque = plan.coversEveryPixel && source.rgba.isOpaque
        let writer = try PNGWriter(target: output, size: plan.size, opaque: opaque, compression: compression, text: text)
        let width = plan.size.width, height = plan.size.height
        let rows = banding.rows(width: width, height: height, renderer: renderer)
        let band = UnsafeMutablePointer<UInt8>.allocate(capacity: rows * width * 4)
        defer { band.deallocate() }
        var y = 0
        while y < height {
            let count = min(rows, height - y)
            try renderer.renderRows(y..<(y + count), into: band)
            try writer.write(premultipliedRows: band, count: count)
            y += count
        }
        return try writer.finish()
    }

    /// Draws `plan` into memory, band by band as `encode` does.
    public static func image(plan: RenderPlan, source: PremultipliedImage, backend: Backend,
                             banding: Banding = Banding()) throws -> PremultipliedImage {
        let renderer = try backend.prepare(plan, source: source)
        let width = plan.size.width, height = plan.size.height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let rows = banding.rows(width: width, height: height, renderer: renderer)
        try pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var y = 0
            while y < height {
                let count = min(rows, height - y)
                try renderer.renderRows(y..<(y + count), into: base + y * width * 4)
                y += count
            }
        }
        return PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels))
    }
}

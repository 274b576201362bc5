/// Limits that keep one bad request from taking the machine down.
public struct Limits: Sendable, Equatable {
    /// Sources above this are refused before their pixels are allocated.
    public var maxSourcePixels: Int
    /// Outputs above this are refused before rendering.
    public var maxOutputPixels: Int

    public static let defaultMaxSourcePixels = 50_000_000
    public static let defaultMaxOutputPixels = 1_000_000_000

    public init(maxSourcePixels: Int = Limits.defaultMaxSourcePixels,
                maxOutputPixels: Int = Limits.defaultMaxOutputPixels) {
        self.maxSourcePixels = maxSourcePixels
        self.maxOutputPixels = maxOutputPixels
    }
}

/// Everything `render` is told about one output, independent of the backend.
public struct RenderOptions: Sendable, Equatable {
    public var size: OutputSize
    /// Output scale `s_out`; nil means the source scale, so caps copy pixel for pixel.
    public var outputScale: Double?
    public var insets: Insets
    /// Source scale; nil means the file name's `@Nx`, else 1.
    public var sourceScale: Double?
    public var modes: PerAxis<ResizeMode>
    public var filter: Filter
    public var fillCenter: Bool
    public var compression: Compression
    public var limits: Limits

    public init(size: OutputSize, outputScale: Double? = nil, insets: Insets = .zero,
                sourceScale: Double? = nil, modes: PerAxis<ResizeMode> = PerAxis(both: .auto),
                filter: Filter = .linear, fillCenter: Bool = true,
                compression: Compression = .default, limits: Limits = Limits()) {
        self.size = size
        self.outputScale = outputScale
        self.insets = insets
        self.sourceScale = sourceScale
        self.modes = modes
        self.filter = filter
        self.fillCenter = fillCenter
        self.compression = compression
        self.limits = limits
    }

    /// The source scale for `path`: its `@Nx` suffix, else the option, else 1.
    /// An option that contradicts the suffix is refused rather than guessed at.
    public func resolvedSourceScale(path: String) throws -> Double {
        let inferred = Scale.inferred(fromFileName: path)
        if let inferred, let sourceScale, abs(inferred - sourceScale) > 1e-9 {
            throw GlsliceError(.usage, file: path,
                "--source-scale \(formatNumber(sourceScale)) contradicts the @\(formatNumber(inferred))x in the file name")
        }
        return inferred ?? sourceScale ?? 1
    }

    /// Builds the plan for `source` read from `path`: its own markers (a
    /// `.9.png`) or these options' insets give the lattice.
    public func plan(source: SourceImage, path: String) throws -> RenderPlan {
        try plan(sourceSize: source.size, path: path, markers: source.markers)
    }

    /// Builds the plan for a source of `sourceSize` read from `path`.
    public func plan(sourceSize: PixelSize, path: String, markers: Lattice? = nil) throws -> RenderPlan {
        do {
            let sourceScale = try resolvedSourceScale(path: path)
            let outputScale = self.outputScale ?? sourceScale
            // A sub-pixel tile per output pixel makes `space` lay out millions of tiles; no UI
            // needs a source drawn at 1/64 of its size or 64 times it.
            let k = outputScale / sourceScale
            guard k >= 1.0 / 64 - 1e-12, k <= 64 + 1e-9 else {
                throw GlsliceError(.usage,
                    "output scale @\(formatNumber(outputScale))x over source scale @\(formatNumber(sourceScale))x is \(k), outside 1/64…64")
            }
            let pixels = try size.pixels(atScale: outputScale)
            guard pixels.width <= Int(Int32.max), pixels.height <= Int(Int32.max),
                  pixels.width.multipliedReportingOverflow(by: pixels.height).overflow == false,
                  pixels.pixelCount <= limits.maxOutputPixels else {
                throw GlsliceError(.badInput,
                    "output \(pixels) px is above the limit of \(limits.maxOutputPixels) pixels (--max-output-pixels)")
            }
            let lattice: Lattice
            if let markers {
                guard insets == .zero else {
                    throw GlsliceError(.usage, "a .9.png's markers give its lattice; drop the insets")
                }
                lattice = markers
            } else {
                lattice = try Lattice(width: sourceSize.width, height: sourceSize.height,
                                      insets: PixelInsets(insets, sourceScale: sourceScale))
            }
            return try RenderPlan(lattice: lattice, size: pixels, k: outputScale / sourceScale,
                                  modes: modes, filter: filter, fillCenter: fillCenter)
        } catch let error as GlsliceError {
            throw error.about(path)
        }
    }
}

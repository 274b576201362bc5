/// The options of one render as a person writes them: `render`'s flags or a
/// manifest line's keys, both turned into `RenderOptions` by the same code.
public struct RenderRequest: Sendable, Equatable {
    public var size: String?
    public var pixels: String?
    public var scale: String?
    public var insets: String?
    public var sourceScale: String?
    public var mode: String?
    public var modeX: String?
    public var modeY: String?
    public var filter: String?
    public var center: Bool = true
    public var compression: String?
    public var limits = Limits()

    public init() {}

    /// Validates every value; the first problem is thrown as `.usage`.
    public func options() throws -> RenderOptions {
        let outputSize: OutputSize
        switch (size, pixels) {
        case (let size?, nil): outputSize = try OutputSize.parsePoints(size)
        case (nil, let pixels?): outputSize = try OutputSize.parsePixels(pixels)
        case (nil, nil): throw GlsliceError(.usage, "give the output size with size WxH (points) or pixels WxH")
        case (_?, _?): throw GlsliceError(.usage, "size and pixels are alternatives; give one")
        }
        guard limits.maxSourcePixels > 0, limits.maxOutputPixels > 0 else {
            throw GlsliceError(.usage, "pixel limits must be positive")
        }
        let both = try mode.map(ResizeMode.init(parsing:)) ?? .auto
        return RenderOptions(
            size: outputSize,
            outputScale: try scale.map { try Scale.parse($0, option: "scale") },
            insets: try insets.map(Insets.init(parsing:)) ?? .zero,
            sourceScale: try sourceScale.map { try Scale.parse($0, option: "source-scale") },
            modes: PerAxis(x: try modeX.map(ResizeMode.init(parsing:)) ?? both,
                           y: try modeY.map(ResizeMode.init(parsing:)) ?? both),
            filter: try filter.map(Filter.init(parsing:)) ?? .linear,
            fillCenter: center,
            compression: try compression.map(Compression.init(parsing:)) ?? .default,
            limits: limits
        )
    }
}

extension RenderOptions {
    /// A stable text of everything that changes the output's pixels or bytes,
    /// for job digests: the same options always give the same text.
    public var canonical: String {
        let size: String
        switch self.size {
        case .points(let w, let h): size = "pt:\(w)x\(h)"
        case .pixels(let p): size = "px:\(p.width)x\(p.height)"
        }
        return [size, "scale:\(outputScale.map { "\($0)" } ?? "-")",
                "insets:\(insets.top),\(insets.left),\(insets.bottom),\(insets.right)",
                "source-scale:\(sourceScale.map { "\($0)" } ?? "-")",
                "mode:\(modes.x.rawValue)/\(modes.y.rawValue)", "filter:\(filter.rawValue)",
                "center:\(fillCenter)", "compression:\(compression.rawValue)"].joined(separator: ";")
    }
}

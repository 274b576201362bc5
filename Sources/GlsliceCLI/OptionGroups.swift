import ArgumentParser
import GlsliceKit

/// The backend and the limits, shared by `render` and `batch`.
struct EngineOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Rendering backend. auto: for render, the CPU (\(BackendUse.renderAutoFigures)); for batch and serve, hybrid on a hardware GPU, else the CPU (\(BackendUse.batchAutoFigures)). hybrid draws on the GPU and the CPU threads together; the bytes are the same on every backend.", valueName: "B"))
    var backend: BackendChoice = .auto

    @Option(help: ArgumentHelp("EGL device index to render on (default: GLSLICE_GPU, else hardware first; see 'glslice doctor').", valueName: "N"))
    var gpu: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Refuse sources with more pixels than this.", valueName: "N"))
    var maxSourcePixels: Int = Limits.defaultMaxSourcePixels

    @Option(parsing: .unconditional, help: ArgumentHelp("Refuse outputs with more pixels than this.", valueName: "N"))
    var maxOutputPixels: Int = Limits.defaultMaxOutputPixels

    func limits() throws -> Limits {
        try Limits.given(maxSourcePixels: maxSourcePixels, maxOutputPixels: maxOutputPixels)
    }
}

/// `render`'s flags: one per `RenderRequest` key (a manifest line says the same).
/// Numeric values are taken even when they start with `-` (`.unconditional`),
/// so `--pixels -5x5` gets glslice's "must be positive", not "Missing value".
struct RenderOptionGroup: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Output size in points (times --scale gives pixels).", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Output size in pixels.", valueName: "WxH"))
    var pixels: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Output scale (default: the source scale).", valueName: "S"))
    var scale: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("End caps in points, top,left,bottom,right; one number sets all four (default 0).", valueName: "T,L,B,R"))
    var insets: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Several stretchable runs per axis in points, as a .9.png's top and left markers give them: x=10-12,30-32;y=8-9 (each run START-END, half-open; an axis left out scales whole). Instead of --insets.", valueName: "RUNS"))
    var lattice: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Source scale when the name has no @2x/@3x (default 1).", valueName: "S"))
    var sourceScale: String?

    @Option(help: ArgumentHelp("Resize mode on both axes.", valueName: "M"))
    var mode: ResizeMode = .auto

    @Option(help: ArgumentHelp("Resize mode along x (overrides --mode).", valueName: "M"))
    var modeX: ResizeMode?

    @Option(help: ArgumentHelp("Resize mode along y (overrides --mode).", valueName: "M"))
    var modeY: ResizeMode?

    @Option(help: ArgumentHelp("Sampling filter.", valueName: "F"))
    var filter: Filter = .linear

    @Flag(help: "Leave the centre transparent (CSS border-image without fill).")
    var noCenter = false

    @Option(help: ArgumentHelp("PNG compression: default (glslice's own deflate: the plan's repeats; on rendered art smaller than zlib 6 at a fraction of its time; where its tokens are short, as in dithers and shifted patterns, a piece is coded by zlib 6 instead (a whole image by libdeflate 6), and where they are many and dear, as in text screenshots, by both, the smaller kept, and rows of 16 bytes or fewer by zlib 6 from the start, so images stay within 1.10x zlib 6's bytes but some small resampled textures (up to 1.4x: use small there); GPUs encode it too), fast (the same for PNG; WebP's fastest), small (the smaller of zlib 9 and default, piece by piece; an image of up to 1 MiB of rows also tries the filters PNG optimizers choose, by libdeflate, and an indexed one grey, grey and alpha or RGB where smaller: 0.86-1.00x zopflipng's bytes at 32-60x its speed) or zlib (zlib 6, the default before renderer 7).", valueName: "C"))
    var compression: Compression = .default

    @Option(parsing: .unconditional, help: ArgumentHelp("CSS border-image-width: the caps drawn this wide in output points, top,left,bottom,right, whatever their slice; tiles along x scale as the top cap does, along y as the left (default: the slice's own size).", valueName: "T,L,B,R"))
    var borderWidth: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("CSS border-image-outset: the image reaches this far past the box, in points, top,left,bottom,right; the output is the box plus these (default 0).", valueName: "T,L,B,R"))
    var outset: String?

    @Option(help: ArgumentHelp("When the output is shorter than the caps: proportional shrinks every cap alike (UIKit, CSS, Android); clip keeps them at their size and cuts them (Godot).", valueName: "S"))
    var small: SmallTarget = .proportional

    @Option(help: ArgumentHelp("Output file format, both lossless (default: the output's name, .png or .webp, else png).", valueName: "F"))
    var format: ImageFormat?

    /// The flags given, as text (a value equal to the flag's default reads as not given, with
    /// the same effect): render's request, and `batch`'s defaults for every line.
    func texts() -> [RequestOption: String] {
        var texts: [RequestOption: String] = [:]
        texts[.size] = size
        texts[.pixels] = pixels
        texts[.scale] = scale
        texts[.insets] = insets
        texts[.lattice] = lattice
        texts[.sourceScale] = sourceScale
        if mode != .auto { texts[.mode] = mode.rawValue }
        texts[.modeX] = modeX?.rawValue
        texts[.modeY] = modeY?.rawValue
        if filter != .linear { texts[.filter] = filter.rawValue }
        if noCenter { texts[.center] = "false" }
        if compression != .default { texts[.compression] = compression.rawValue }
        texts[.borderWidth] = borderWidth
        texts[.outset] = outset
        if small != .proportional { texts[.small] = small.rawValue }
        texts[.format] = format?.rawValue
        return texts
    }

    /// The request these flags make, through the parser a manifest line and a URL use;
    /// a bad value's error names its option, spelled as a flag (`OptionStyle.flag`).
    func request() throws -> RenderRequest {
        try RenderRequest(texts: texts(), style: .flag)
    }
}

/// Where a plain PNG's caps are, for the asset tools (`inspect`, `optimize`):
/// a nine-patch or sliced image set gives its own.
struct SlicingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("End caps in points, top,left,bottom,right, for a plain PNG.", valueName: "T,L,B,R"))
    var insets: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Source scale when the name has no @2x/@3x (default 1).", valueName: "S"))
    var sourceScale: String?

    @Flag(help: "Read the input's 1-px border as nine-patch markers whatever its name (for '-', standard input).")
    var ninePatch = false

    func parsedInsets() throws -> Insets { try insets.map(Insets.init(parsing:)) ?? .zero }

    func parsedSourceScale() throws -> Double? { try sourceScale.map { try Scale.parse($0, option: .sourceScale) } }
}

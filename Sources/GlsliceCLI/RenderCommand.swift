import ArgumentParser
import GlsliceKit

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one resizable image to a PNG.",
        discussion: """
        Insets are end caps in points, UIKit order top,left,bottom,right; caps are never
        resized when the output scale equals the source scale (the default). The source
        scale comes from an @2x/@3x suffix in the file name, else --source-scale, else 1.

        Modes (per axis, for the resizable parts): auto (stretch 1-px parts, tile the
        rest; UIKit), stretch, tile, repeat (CSS, centred), round (CSS), space (CSS).

        Examples:
          # A @2x button, 120x44 pt at @2x (240x88 px), caps of 14,12,14,12 pt:
          glslice render button@2x.png --insets 14,12,14,12 --size 120x44 -o ok@2x.png

          # The same button for a @3x screen, from the @2x art (caps grow 1.5x):
          glslice render button@2x.png --insets 14,12,14,12 --size 120x44 --scale 3 -o ok@3x.png

          # A tiled texture with 8 px caps, filling 300x200 px:
          glslice render texture.png --insets 8,8,8,8 --mode tile --pixels 300x200 -o t.png

          # A 1-pixel-wide vertical gradient bar stretched to 320x24 px:
          glslice render bar.png --pixels 320x24 --mode stretch -o bar-320.png
        """
    )

    @Argument(help: "The source PNG ('-' for standard input).")
    var input: String

    @Option(name: .shortAndLong, help: "The output PNG ('-' for standard output).")
    var output: String

    @Option(help: ArgumentHelp("Output size in points, WxH (times --scale gives pixels).", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("Output size in pixels, WxH.", valueName: "WxH"))
    var pixels: String?

    @Option(help: ArgumentHelp("Output scale (default: the source scale).", valueName: "S"))
    var scale: String?

    @Option(help: ArgumentHelp("End caps in points: top,left,bottom,right (default 0,0,0,0).", valueName: "T,L,B,R"))
    var insets: String?

    @Option(help: ArgumentHelp("Source scale when the name has no @2x/@3x (default 1).", valueName: "S"))
    var sourceScale: String?

    @Option(help: ArgumentHelp("Resize mode on both axes: auto, stretch, tile, repeat, round, space (default auto).", valueName: "M"))
    var mode: String?

    @Option(help: ArgumentHelp("Resize mode along x (overrides --mode).", valueName: "M"))
    var modeX: String?

    @Option(help: ArgumentHelp("Resize mode along y (overrides --mode).", valueName: "M"))
    var modeY: String?

    @Option(help: ArgumentHelp("Sampling filter: linear or nearest (default linear).", valueName: "F"))
    var filter: String?

    @Flag(help: "Leave the centre transparent (CSS border-image without fill).")
    var noCenter = false

    @Option(help: ArgumentHelp("PNG compression: fast, default or small (default default).", valueName: "C"))
    var compression: String?

    @Option(help: ArgumentHelp("Rendering backend: gpu, cpu or auto (GPU if a context comes up, else CPU with a warning; default auto).", valueName: "B"))
    var backend: String?

    @Option(help: ArgumentHelp("EGL device index to render on (default: GLSLICE_GPU, else hardware first; see 'glslice doctor').", valueName: "N"))
    var gpu: Int?

    @Option(help: ArgumentHelp("Refuse sources with more pixels than this.", valueName: "N"))
    var maxSourcePixels: Int = Limits.defaultMaxSourcePixels

    @Option(help: ArgumentHelp("Refuse outputs with more pixels than this.", valueName: "N"))
    var maxOutputPixels: Int = Limits.defaultMaxOutputPixels

    func run() throws {
        do {
            let options = try makeOptions()
            let choice = try backend.map(BackendChoice.init(parsing:)) ?? .auto
            let renderer = try Backend.make(choice, device: gpu, warn: warn)
            try Render.run(input: input, output: OutputTarget(output), options: options, backend: renderer)
        } catch let error as GlsliceError {
            throw error.about(input)
        }
    }

    func makeOptions() throws -> RenderOptions {
        let outputSize: OutputSize
        switch (size, pixels) {
        case (let size?, nil): outputSize = try OutputSize.parsePoints(size)
        case (nil, let pixels?): outputSize = try OutputSize.parsePixels(pixels)
        case (nil, nil): throw GlsliceError(.usage, "give the output size with --size WxH (points) or --pixels WxH")
        case (_?, _?): throw GlsliceError(.usage, "--size and --pixels are alternatives; give one")
        }
        let both = try mode.map(ResizeMode.init(parsing:)) ?? .auto
        guard maxSourcePixels > 0, maxOutputPixels > 0 else {
            throw GlsliceError(.usage, "pixel limits must be positive")
        }
        return RenderOptions(
            size: outputSize,
            outputScale: try scale.map { try Scale.parse($0, option: "--scale") },
            insets: try insets.map(Insets.init(parsing:)) ?? .zero,
            sourceScale: try sourceScale.map { try Scale.parse($0, option: "--source-scale") },
            modes: PerAxis(x: try modeX.map(ResizeMode.init(parsing:)) ?? both,
                           y: try modeY.map(ResizeMode.init(parsing:)) ?? both),
            filter: try filter.map(Filter.init(parsing:)) ?? .linear,
            fillCenter: !noCenter,
            compression: try compression.map(Compression.init(parsing:)) ?? .default,
            limits: Limits(maxSourcePixels: maxSourcePixels, maxOutputPixels: maxOutputPixels)
        )
    }
}

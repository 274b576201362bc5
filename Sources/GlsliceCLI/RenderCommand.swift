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
        A NAME.9.png is an Android nine-patch: its border markers give the lattice.

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

          # An Android nine-patch (markers in its 1-px border):
          glslice render bubble.9.png --pixels 160x60 -o bubble.png
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

    @OptionGroup var backendOptions: BackendOptions

    @OptionGroup var limitOptions: LimitOptions

    func run() throws {
        do {
            let options = try makeOptions()
            let renderer = try Backend.make(backendOptions.choice(), device: backendOptions.gpu, warn: warn)
            try Render.run(input: input, output: OutputTarget(output), options: options, backend: renderer)
        } catch let error as GlsliceError {
            throw error.about(input)
        }
    }

    func makeOptions() throws -> RenderOptions {
        var request = RenderRequest()
        request.size = size
        request.pixels = pixels
        request.scale = scale
        request.insets = insets
        request.sourceScale = sourceScale
        request.mode = mode
        request.modeX = modeX
        request.modeY = modeY
        request.filter = filter
        request.center = !noCenter
        request.compression = compression
        request.limits = limitOptions.limits
        do {
            return try request.options()
        } catch var error as GlsliceError {
            // Name the flags as the user typed them.
            for flag in ["size", "pixels", "scale", "source-scale"] where error.message.hasPrefix(flag + " ") {
                error.message = "--" + error.message
            }
            throw error
        }
    }
}

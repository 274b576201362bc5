import ArgumentParser
import GlsliceKit

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render one resizable image to a PNG or a lossless WebP.",
        discussion: """
        Insets are end caps in points, UIKit order top,left,bottom,right. Caps are never resized when the output scale equals the source scale (the default). The source scale comes from an @2x/@3x suffix in the file name, else --source-scale, else 1. A NAME.9.png is an Android nine-patch and a NAME.imageset an Xcode image set: their own markers or cap-insets give the lattice.

        Modes, per axis, for the resizable parts: auto (stretch 1-px parts, tile the rest, as UIKit does), stretch, tile, repeat (CSS, centred), round (CSS), space (CSS).

        Examples (from the repository root):
          # The examples write into out/ (git ignores it):
          mkdir -p out

          # A @2x button, 120x44 pt at @2x (240x88 px), caps of 14,12,14,12 pt:
          glslice render Fixtures/button@2x.png --insets 14,12,14,12 \\
              --size 120x44 -o out/ok@2x.png

          # The same button for a @3x screen, from the @2x art (caps grow 1.5x):
          glslice render Fixtures/button@2x.png --insets 14,12,14,12 \\
              --size 120x44 --scale 3 -o out/ok@3x.png

          # A tiled texture with 6 px caps, filling 300x200 px:
          glslice render Fixtures/texture.png --insets 6,6,6,6 --mode tile \\
              --pixels 300x200 -o out/t.png

          # A 1-pixel-wide gradient bar stretched to 320x24 px:
          glslice render Fixtures/bar.png --pixels 320x24 --mode stretch \\
              -o out/bar-320.png

          # An Android nine-patch (markers in its 1-px border):
          glslice render Fixtures/bubble.9.png --pixels 160x60 -o out/bubble.png

          # The same bubble as a plain PNG, its stretch runs given in points
          # (two across, one down), as the nine-patch's markers give them:
          glslice render Fixtures/bubble.png --lattice "x=8-10,16-18;y=8-10" \\
              --mode stretch --pixels 160x60 -o out/bubble-lattice.png

          # Lossless WebP, as the name says (a .jpg name is refused):
          glslice render Fixtures/panel.png --insets 8 --pixels 320x200 \\
              -o out/panel.webp

          # Smaller than its caps: keep them at their size and cut them (Godot):
          glslice render Fixtures/button.png --insets 14,12,14,12 --pixels 18x20 \\
              --small clip -o out/small.png

          # Through a pipe: '-' is standard input and output; a nine-patch there
          # needs --nine-patch, as its name is gone:
          glslice render - --nine-patch --pixels 160x60 -o - \\
              < Fixtures/bubble.9.png > out/piped.png
        """
    )

    @Argument(help: "The source PNG ('-' for standard input) or an .imageset folder.", completion: .file())
    var input: String

    @Option(name: .shortAndLong, help: "The output: NAME.png, NAME.webp (lossless), or '-' for standard output.", completion: .file())
    var output: String

    @Flag(help: "Read the input's 1-px border as nine-patch markers whatever its name (for '-', standard input).")
    var ninePatch = false

    @OptionGroup(title: "Render options") var renderOptions: RenderOptionGroup

    @OptionGroup(title: "Backend and limits") var engine: EngineOptions

    @Flag(help: "Say on stderr where the output was drawn and encoded (the CPU, or the GPU's compute encoder).")
    var verbose = false

    func run() throws {
        try refuseTerminalOutput(output)
        // A bad flag value is the flag's fault, not the input's: its error names the flag alone.
        let request = try renderOptions.request()
        let limits = try engine.limits()
        do {
            try Render.run(input: input, output: output, request: request, limits: limits,
                           backend: engine.backend, device: gpuDevice(engine.gpu), ninePatch: ninePatch, warn: warn,
                           tell: { if verbose { standardError("glslice: \($0)\n") } }, gpuEncoding: gpuEncodingSetting())
        } catch let error as GlsliceError {
            throw error.about(input)
        }
    }
}

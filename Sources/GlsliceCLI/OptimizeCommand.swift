import ArgumentParser
import GlsliceKit

struct OptimizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "optimize",
        abstract: "Write the smallest source that renders the same.",
        usage: "glslice optimize <input> -o <output> [--keep-period] [<options>]",
        discussion: """
        Each scalable band shrinks to 1 px when it is solid or a gradient along the other axis; with --keep-period, a texture that holds a whole number of periods shrinks to one period (equal only when tiled). Caps are never changed, so insets stay as they were. Before writing, the old and new sources are rendered at 20 or more sizes (smaller than the caps, natural, wide, tall, large), at two scales and with both filters, in every mode; nothing is written if any pixel differs in a mode that must agree. The report names the modes the result is byte-identical in. A smaller image whose file would not be fewer bytes than the input is not written: the input is copied and the report says it is already minimal. A .9.png gets new markers, an .imageset new PNGs and centre sizes in Contents.json.

        Examples (from the repository root):
          # The examples write into out/ (git ignores it):
          mkdir -p out

          # A @2x button whose centre is wider than it needs (50x58 px -> 49x58 px):
          glslice optimize Fixtures/button@2x.png --insets 14,12,14,12 \\
              -o out/button-small@2x.png

          # A nine-patch, keeping the markers (this one is already minimal:
          # its smaller form is a larger file, so it is copied as it is):
          glslice optimize Fixtures/bubble.9.png -o out/bubble-small.9.png

          # A brick texture, kept at one period for tiling:
          glslice optimize Fixtures/texture.png --insets 6,6,6,6 --keep-period \\
              -o out/texture-small.png
        """
    )

    @Argument(help: "A PNG, a .9.png, or an .imageset folder ('-' for standard input).", completion: .file())
    var input: String

    @Option(name: .shortAndLong, help: "The smaller source: a PNG, a .9.png for a .9.png, an NAME.imageset for an image set ('-' for standard output).", completion: .file())
    var output: String

    @OptionGroup var slicing: SlicingOptions

    @Flag(help: "Shrink a periodic texture to one period (then equal only in tile and auto modes).")
    var keepPeriod = false

    func run() throws {
        try refuseTerminalOutput(output)
        do {
            let report = try Optimizer.optimize(input: input, output: output, insets: try slicing.parsedInsets(),
                                                sourceScale: try slicing.parsedSourceScale(), keepPeriod: keepPeriod,
                                                ninePatch: slicing.ninePatch, warn: warn)
            // With the PNG on standard output, the report goes to stderr.
            if output == "-" { standardError(report.text + "\n") } else { print(report.text) }
        } catch let error as GlsliceError {
            throw error.about(input)
        }
    }
}

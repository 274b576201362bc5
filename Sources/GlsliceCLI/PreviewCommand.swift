import ArgumentParser
import GlsliceKit

struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Draw a contact sheet of sources and their renders, to look at.",
        discussion: """
        For each source: the source magnified (nearest sampling) with its cap lines in magenta, its other lattice lines in cyan, a nine-patch's padding box in green and optical bounds dashed red; then, for each mode (the source's default first), renders smaller than the caps, at the natural size, wide, tall and large. Everything is drawn on a checkerboard so that alpha shows, and every tile is labelled. Sources are shown at their own size (magnified when small), so a sheet of large sources is large: its size is checked before anything is drawn, against --max-megapixels and the memory left (ulimit -v), and refused with exit 65.

        Examples (from the repository root):
          # The examples write into out/ (git ignores it):
          mkdir -p out

          # The sample sources on one sheet:
          glslice preview Fixtures/bubble.9.png Fixtures/button.imageset \\
              -o out/sheet.png

          # A plain PNG with its caps:
          glslice preview Fixtures/texture.png --insets 6,6,6,6 \\
              -o out/texture-sheet.png
        """
    )

    @Argument(help: "PNGs, .9.pngs or .imageset folders ('-' for standard input, once).", completion: .file())
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The contact sheet: PNG, or lossless WebP when named .webp ('-' for standard output, PNG).", completion: .file())
    var output: String

    @Option(help: ArgumentHelp("End caps in points for the plain PNGs, top,left,bottom,right.", valueName: "T,L,B,R"))
    var insets: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Several stretchable runs per axis in points, as a .9.png's top and left markers give them: x=10-12,30-32;y=8-9 (each run START-END, half-open; an axis left out scales whole). For the plain PNGs, instead of --insets.", valueName: "RUNS"))
    var lattice: String?

    @Option(help: ArgumentHelp("The largest sheet to draw, in millions of pixels; a bigger one is refused (exit 65) before it is drawn.",
                               valueName: "N"))
    var maxMegapixels: Int = ContactSheet.defaultMaxPixels / 1_000_000

    func run() throws {
        // Checked here, not in `validate()`: ArgumentParser wraps what `validate()` throws
        // in an error of its own, which would read as a bug (exit 70) instead of exit 64.
        guard !inputs.isEmpty else { throw UsageErrors.noSources() }
        guard (1...100_000).contains(maxMegapixels) else { throw UsageErrors.outOfRange("--max-megapixels", 1...100_000, got: maxMegapixels) }
        try refuseTerminalOutput(output)
        _ = try StillImageWriter.format(for: output) // `-o x.jpg` is refused before any work, `-o x.webp` is WebP
        let sheet = try ContactSheet.make(paths: inputs, insets: try insets.map(Insets.init(parsing:)) ?? .zero,
                                          runs: try lattice.map(LatticeRuns.init(parsing:)),
                                          maxSheetPixels: maxMegapixels * 1_000_000)
        try StillImageWriter.write(sheet, to: output)
    }
}

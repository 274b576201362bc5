import ArgumentParser
import Foundation
import GlsliceKit

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a source: size, scale, lattice, padding, and how small it could be.",
        usage: "glslice inspect <input> [--insets <T,L,B,R>] [--json] [<options>]",
        discussion: """
        Each scalable band (a scalable segment across the whole source) is analysed by the rule "supply the smallest image that gives the look": solid (1 px would do), a gradient along the other axis (1 px across would do), periodic (one period would do when tiled, if the band holds a whole number of periods), or none of these. Beside NAME.png it also reads NAME@2x.png and NAME@3x.png (or an image set's variants) and says whether their sizes and caps agree in points.

        Examples (from the repository root):
          # A button with 14,12,14,12 pt caps:
          glslice inspect Fixtures/button@2x.png --insets 14,12,14,12

          # A plain PNG with several stretch runs, and its one-colour cells:
          glslice inspect Fixtures/bubble.png --lattice "x=8-10,16-18;y=8-10"

          # An Android nine-patch, as JSON:
          glslice inspect Fixtures/bubble.9.png --json
        """
    )

    @Argument(help: "A PNG, a .9.png, or an .imageset folder ('-' for standard input).", completion: .file())
    var input: String

    @OptionGroup var slicing: SlicingOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Several stretchable runs per axis in points, as a .9.png's top and left markers give them: x=10-12,30-32;y=8-9 (each run START-END, half-open; an axis left out scales whole). For a plain PNG, instead of --insets.", valueName: "RUNS"))
    var lattice: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        do {
            let inspection = try Inspection.make(path: input, insets: try slicing.parsedInsets(), lattice: try lattice.map(LatticeRuns.init(parsing:)), sourceScale: try slicing.parsedSourceScale(),
                                                 ninePatch: slicing.ninePatch, warn: warn)
            print(json ? inspection.json : inspection.text)
        } catch let error as GlsliceError {
            throw error.about(input)
        }
    }
}

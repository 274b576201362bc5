import ArgumentParser
import Foundation
import GlsliceKit

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two images (PNG or WebP): max and mean difference, pixels over a tolerance, a heat map.",
        discussion: """
        Differences are per channel of straight RGBA as decoded. The heat map shows equal pixels dark grey, differences within the tolerance blue, and larger ones from yellow to red. Exit status: 0 when no pixel differs by more than the tolerance, 1 when some do, 65 when the images differ in size (both sizes are named).

        Examples (from the repository root):
          # The examples write into out/ (git ignores it):
          mkdir -p out

          # Two renders of one texture, tiled and rounded:
          glslice render Fixtures/texture.png --insets 6 --mode tile \\
              --pixels 300x200 -o out/tile.png
          glslice render Fixtures/texture.png --insets 6 --mode round \\
              --pixels 300x200 -o out/round.png

          # Where does CSS round rescale the bricks? (exit 1: they differ)
          glslice compare out/tile.png out/round.png --diff out/heat.png

          # Allow 1 level per channel, and print JSON for a script (exit 1:
          # the bricks still differ by more):
          glslice compare out/tile.png out/round.png --tolerance 1 --json
        """
    )

    @Argument(help: "The first image, PNG or WebP ('-' for standard input).", completion: .file())
    var first: String

    @Argument(help: "The second image, PNG or WebP.", completion: .file())
    var second: String

    @Option(help: ArgumentHelp("Largest difference per channel that still counts as equal.", valueName: "N"))
    var tolerance: Int = 0

    @Option(help: ArgumentHelp("Write a heat map of the differences here: PNG, or lossless WebP when named .webp ('-' for standard output, PNG).", valueName: "PATH"), completion: .file())
    var diff: String?

    @Flag(help: "Print the result as JSON on stdout.")
    var json = false

    /// `compare --json`.
    struct Result: Encodable {
        var first: String
        var second: String
        var width: Int
        var height: Int
        var maxDifference: Int
        var meanDifference: Double
        var pixelsOverTolerance: Int
        var tolerance: Int
        var differ: Bool

        enum CodingKeys: String, CodingKey {
            case first, second, width, height, tolerance, differ
            case maxDifference = "max-difference"
            case meanDifference = "mean-difference"
            case pixelsOverTolerance = "pixels-over-tolerance"
        }
    }

    func run() throws {
        guard (0...255).contains(tolerance) else { throw UsageErrors.outOfRange("--tolerance", 0...255, got: tolerance) }
        guard !(first == "-" && second == "-") else {
            throw UsageErrors.standardInputForBoth()
        }
        if let diff { _ = try StillImageWriter.format(for: diff) } // `--diff x.jpg` is refused before any work
        let comparison = try ImageComparison.compareFiles(first, second, tolerance: tolerance)
        if let diff { try StillImageWriter.write(comparison.heatMap(), to: diff) }
        if json && diff != "-" {
            printJSON(Result(first: first, second: second, width: comparison.size.width, height: comparison.size.height,
                             maxDifference: comparison.maxDifference, meanDifference: comparison.meanDifference,
                             pixelsOverTolerance: comparison.pixelsOver, tolerance: tolerance, differ: comparison.differ))
        } else {
            let line = "\(first) vs \(second): \(comparison.summary)"
            // With the heat map on standard output, the summary goes to stderr.
            if diff == "-" { standardError(line + "\n") } else { print(line) }
        }
        if comparison.differ { throw ExitCode(1) }
    }
}

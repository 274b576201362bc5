import ArgumentParser
import Foundation
import GlsliceKit

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two PNGs: max and mean difference, pixels over a tolerance, a heat map.",
        discussion: """
        Differences are per channel of straight RGBA as decoded. The heat map shows equal pixels dark grey, differences within the tolerance blue, and larger ones from yellow to red. Exit status: 0 when no pixel differs by more than the tolerance, 1 when some do, 65 when the images differ in size (both sizes are named).

        Examples:
          # Did the new driver change anything?
          glslice compare cpu.png gpu.png

          # Allow 1 level (linear filtering across backends) and draw where they differ:
          glslice compare cpu.png gpu.png --tolerance 1 --diff heat.png
        """
    )

    @Argument(help: "The first PNG.")
    var first: String

    @Argument(help: "The second PNG.")
    var second: String

    @Option(help: ArgumentHelp("Largest difference per channel that still counts as equal.", valueName: "N"))
    var tolerance: Int = 0

    @Option(help: ArgumentHelp("Write a heat map of the differences to this PNG.", valueName: "PATH"))
    var diff: String?

    func run() throws {
        guard (0...255).contains(tolerance) else { throw GlsliceError(.usage, "--tolerance must be 0 to 255, got \(tolerance)") }
        let limit = Limits().maxSourcePixels
        let a = try PNGDecoder.decode(path: first, maxPixels: limit), b = try PNGDecoder.decode(path: second, maxPixels: limit)
        let comparison = try ImageComparison.compare(a, b, tolerance: tolerance, files: (first, second))
        if let diff { _ = try PNGEncoder.write(comparison.heatMap(), to: OutputTarget(diff)) }
        print("\(first) vs \(second): \(comparison.summary)")
        if comparison.differ { throw ExitCode(1) }
    }
}

import ArgumentParser
import Foundation
import GlsliceKit

struct ParityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parity",
        abstract: "Render seeded random jobs on the CPU and the GPU and check they agree (docs/RENDERING.md §5).",
        discussion: """
        Every pixel must be identical, under both filters and every mode and scale (docs/RENDERING.md §5), and every job's PNG (glslice's own deflate, the default) the same bytes, written on the GPU by its compute encoder where the context has OpenGL ES 3.1. Exits 0 when they are, 1 when not, 69 without a GPU. Run it to trust a new driver.

        Examples:
          glslice parity --cases 100
          glslice parity --cases 100 --seed 7 --json
        """
    )

    @Option(help: "How many random jobs.")
    var cases = 1000

    @Option(help: "Seed of the job sequence.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("EGL device index (default: GLSLICE_GPU, else hardware first).", valueName: "N"))
    var gpu: Int?

    @Flag(help: "Print the result as JSON on stdout.")
    var json = false

    func run() throws {
        guard (1...10_000_000).contains(cases) else { throw UsageErrors.outOfRange("--cases", 1...10_000_000, got: cases) }
        // Parity holds the GPU's encoder to the CPU's wherever it takes a job, on llvmpipe too.
        let resolved = try BackendResolution.resolve(.gpu, for: .parity, device: gpuDevice(gpu), gpuEncoding: true)
        if !json { print("parity: \(cases) jobs, seed \(seed), cpu vs \(resolved.description)") }
        let report = try Parity.run(cases: cases, seed: seed, candidate: resolved.backend)
        if json {
            printJSON(report.json(seed: seed, candidate: resolved.description))
        } else {
            report.lines.forEach { print($0) }
        }
        if !report.passed { throw ExitCode(1) }
    }
}

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

    /// `parity --json`.
    struct Result: Encodable {
        var cases: Int
        var seed: UInt64
        var candidate: String
        var pixels: Int
        var maxDifference: Int
        var meanDifference: Double
        var worst: String?
        var violations: [String]
        var passed: Bool
        var encoded: Int
        var encodedOnGPU: Int

        enum CodingKeys: String, CodingKey {
            case cases, seed, candidate, pixels, worst, violations, passed, encoded
            case encodedOnGPU = "encoded-on-gpu"
            case maxDifference = "max-difference"
            case meanDifference = "mean-difference"
        }
    }

    func run() throws {
        guard (1...10_000_000).contains(cases) else { throw UsageErrors.outOfRange("--cases", 1...10_000_000, got: cases) }
        // Parity holds the GPU's encoder to the CPU's wherever it takes a job, on llvmpipe too.
        let resolved = try BackendResolution.resolve(.gpu, for: .parity, device: gpuDevice(gpu), gpuEncoding: true)
        if !json { print("parity: \(cases) jobs, seed \(seed), cpu vs \(resolved.description)") }
        let report = try Parity.run(cases: cases, seed: seed, candidate: resolved.backend)
        if json {
            printJSON(Result(cases: cases, seed: seed, candidate: resolved.description, pixels: report.pixels,
                             maxDifference: report.maxDifference, meanDifference: report.meanDifference,
                             worst: report.worst, violations: report.violations, passed: report.passed,
                             encoded: report.encoded, encodedOnGPU: report.encodedOnGPU))
            if !report.passed { throw ExitCode(1) }
            return
        }
        print(String(format: "max difference %d, mean difference %.5f per channel over %d pixels",
                     report.maxDifference, report.meanDifference, report.pixels))
        if let worst = report.worst { print("worst: \(worst) (max \(report.worstDifference))") }
        print("PNGs (glslice deflate, the default) compared byte for byte: \(report.encoded), \(report.encodedOnGPU) of them encoded on the GPU")
        if let declined = report.firstDeclined { print("the GPU's encoder gave some to the CPU, first \(declined)") }
        for violation in report.violations.prefix(10) { print("FAIL \(violation)") }
        if report.passed {
            print("parity: pass (every pixel identical, every PNG the same bytes)")
        } else {
            print("parity: FAIL, \(report.violations.count) of \(cases) jobs outside docs/RENDERING.md §5")
            throw ExitCode(1)
        }
    }
}

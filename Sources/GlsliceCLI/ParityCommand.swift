import ArgumentParser
import Foundation
import GlsliceKit

struct ParityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parity",
        abstract: "Render seeded random jobs on the CPU and the GPU and check they agree (docs/RENDERING.md §5).",
        discussion: """
        Nearest sampling and exact-copy cells must be bit-identical and linear sampling within 1 per channel (docs/RENDERING.md §5). Exits 0 when they are, 1 when not, 69 without a GPU. Run it to trust a new driver.

        Examples:
          glslice parity
          glslice parity --cases 5000 --seed 7 --gpu 1
        """
    )

    @Option(help: "How many random jobs.")
    var cases = 1000

    @Option(help: "Seed of the job sequence.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("EGL device index (default: GLSLICE_GPU, else hardware first).", valueName: "N"))
    var gpu: Int?

    func run() throws {
        guard cases > 0 else { throw GlsliceError(.usage, "--cases must be positive") }
        let backend = try Backend.make(.gpu, device: gpuDevice(gpu))
        print("parity: \(cases) jobs, seed \(seed), cpu vs \(backend.description)")
        let report = try Parity.run(cases: cases, seed: seed, candidate: backend)
        print(String(format: "max difference %d, mean difference %.5f per channel over %d pixels",
                     report.maxDifference, report.meanDifference, report.pixels))
        if let worst = report.worst { print("worst: \(worst) (max \(report.worstDifference))") }
        for violation in report.violations.prefix(10) { print("FAIL \(violation)") }
        if report.passed {
            print("parity: pass (nearest and exact copies identical, linear within 1)")
        } else {
            print("parity: FAIL, \(report.violations.count) of \(cases) jobs outside docs/RENDERING.md §5")
            throw ExitCode(1)
        }
    }
}

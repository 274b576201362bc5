import ArgumentParser
import Foundation
import GlsliceKit

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Show what EGL and OpenGL ES glslice finds on this machine, and why a GPU context fails.",
        discussion: """
        Prints its answer first: which backend --backend auto would take and why (the CPU when the only GL is a software rasteriser such as llvmpipe), and whether PNGs are encoded on the GPU. Then the details: the display chosen, GL_VENDOR, GL_RENDERER, GL_VERSION and the limits (or what to check when no context comes up), the displays tried, the EGL devices and the EGL client extensions. Exits 69 when no context comes up.

        Examples:
          glslice doctor
          glslice doctor --json
        """
    )

    @Option(help: ArgumentHelp("EGL device index to try (default: GLSLICE_GPU, else all in order).", valueName: "N"))
    var gpu: Int?

    @Flag(help: "Print the findings as JSON on stdout.")
    var json = false

    func run() throws {
        let findings = try DoctorFindings.examine(device: try gpuDevice(gpu), forced: gpuEncodingSetting())
        if json { printJSON(findings) } else { findings.lines.forEach { print($0) } }
        guard findings.hasContext else { throw UnavailableErrors.noContext() }
    }
}

import ArgumentParser
import Foundation
import GlsliceKit

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Show what EGL and OpenGL ES glslice finds on this machine, and why a GPU context fails.",
        discussion: """
        Prints the EGL client extensions, the EGL devices, the display chosen, GL_VENDOR, GL_RENDERER, GL_VERSION and the limits, and which backend --backend auto would take and why (the CPU when the only GL is a software rasteriser such as llvmpipe). Exits 69 when no context comes up.

        Examples:
          glslice doctor
          GLSLICE_GPU=1 glslice doctor
        """
    )

    @Option(help: ArgumentHelp("EGL device index to try (default: GLSLICE_GPU, else all in order).", valueName: "N"))
    var gpu: Int?

    func run() throws {
        let extensions = GPUContext.clientExtensions
        print("EGL client extensions:")
        print(extensions.isEmpty ? "  (none: is libEGL installed? apt-get install libegl1 libegl-mesa0)"
              : extensions.split(separator: " ").map { "  \($0)" }.joined(separator: "\n"))
        let devices = GPUContext.devices()
        print("EGL devices: \(devices.count)")
        for device in devices {
            print("  [\(device.index)] \(device.isSoftware ? "software (Mesa)" : "hardware") drm=\(device.drmFile ?? "-")")
            print("      extensions: \(device.extensions.isEmpty ? "-" : device.extensions)")
        }
        var attempts: [GPUContext.Attempt] = []
        let context = GPUContext.make(device: try gpuDevice(gpu), attempts: &attempts)
        print("Displays tried:")
        for attempt in attempts { print("  \(attempt.candidate): \(attempt.failure ?? "ok")") }
        guard let context else {
            print("""
            No OpenGL ES 3 context. Check:
              - the glvnd vendor files: ls /usr/share/glvnd/egl_vendor.d/ (Mesa: 50_mesa.json; NVIDIA: 10_nvidia.json)
              - __EGL_VENDOR_LIBRARY_FILENAMES, which overrides them (now: \(ProcessInfo.processInfo.environment["__EGL_VENDOR_LIBRARY_FILENAMES"] ?? "unset"))
              - /dev/dri permissions (ls -l /dev/dri; the user needs the render or video group)
              - Mesa for CPU-only machines: apt-get install libegl-mesa0 libgl1-mesa-dri
            """)
            print("--backend auto would take: cpu (no GPU context)")
            throw GlsliceError(.unavailable, "no usable EGL/OpenGL ES 3 context")
        }
        print("Display chosen: \(context.displayDescription)")
        print("GL_VENDOR:   \(context.vendor)")
        print("GL_RENDERER: \(context.renderer)")
        print("GL_VERSION:  \(context.version)")
        print("Limits: max texture \(context.limits.maxTextureSize), max renderbuffer \(context.limits.maxRenderbufferSize), "
              + "max viewport \(context.limits.maxViewport.width)x\(context.limits.maxViewport.height)")
        let verdict = Backend.autoVerdict(for: context)
        print("--backend auto would take: \(verdict.useGPU ? "gpu" : "cpu") (\(verdict.reason))")
        if verdict.useGPU {
            let megapixels = Double(Backend.singleRenderGPUPixels) / 1e6
            print("  except 'glslice render' of an output under \(formatNumber(megapixels)) Mpx: cpu (opening a GL context takes longer than the CPU takes to draw it)")
        }
    }
}

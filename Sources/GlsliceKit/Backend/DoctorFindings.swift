import Foundation

/// What `glslice doctor` finds on this machine (EGL devices, the displays tried, the context and
/// its limits, what `auto` takes, whether PNGs are encoded on the GPU), gathered and worded here so
/// the command only prints it: its lines, or itself as JSON.
package struct DoctorFindings: Encodable, Sendable {
    struct Device: Encodable, Sendable {
        var index: Int
        var software: Bool
        var drm: String?
        var extensions: [String]
    }
    struct Attempt: Encodable, Sendable {
        var display: String
        var failure: String?
    }
    struct Context: Encodable, Sendable {
        var display: String
        var vendor: String
        var renderer: String
        var version: String
        var maxTextureSize: Int
        var maxRenderbufferSize: Int
        var maxViewport: [Int]
        /// "on", "off" (available, not used here) or why it is unavailable.
        var gpuEncoding: String
        /// `GLSLICE_GPU_ENCODE` as read (nil: unset, the default for this GPU decides).
        var gpuEncodingForced: Bool?
        /// Why `gpuEncoding` is what it is, in the text report's words.
        var gpuEncodingReason = ""
        /// Per backend (`cpu`, `gpu`, `hybrid`, and `auto` for render and for batch and serve):
        /// where the PNGs the GPU draws are encoded, `gpu` or `cpu` (with `cpu` the GPU draws none).
        var gpuEncodingByBackend: [String: String] = [:]

        enum CodingKeys: String, CodingKey {
            case display, vendor, renderer, version
            case gpuEncoding = "gpu-encoding"
            case gpuEncodingForced = "gpu-encoding-forced"
            case gpuEncodingReason = "gpu-encoding-reason"
            case gpuEncodingByBackend = "gpu-encoding-by-backend"
            case maxTextureSize = "max-texture-size"
            case maxRenderbufferSize = "max-renderbuffer-size"
            case maxViewport = "max-viewport"
        }
    }
    struct Auto: Encodable, Sendable {
        var backend: String
        var reason: String
    }
    var clientExtensions: [String]
    var devices: [Device]
    var attempts: [Attempt]
    /// nil: no OpenGL ES 3 context came up (exit 69).
    var context: Context?
    /// Whether an OpenGL ES 3 context came up (else doctor exits 69).
    package var hasContext: Bool { context != nil }
    var auto: Auto

    enum CodingKeys: String, CodingKey {
        case devices, attempts, context, auto
        case clientExtensions = "client-extensions"
    }

    /// Looks: the EGL devices, a context on `device` (nil: `GLSLICE_GPU`'s, else each in order),
    /// what serve's `auto` would take with it; `forced` is `GLSLICE_GPU_ENCODE` as read.
    package static func examine(device: Int?, forced: Bool?) throws -> DoctorFindings {
        let devices = GPUContext.devices().map {
            Device(index: $0.index, software: $0.isSoftware, drm: $0.drmFile,
                   extensions: $0.extensions.split(separator: " ").map(String.init))
        }
        var attempts: [GPUContext.Attempt] = []
        let context = GPUContext.make(device: device, attempts: &attempts)
        // What serve's `auto` would take, asked of the one resolver with the context found here.
        let auto = try BackendResolution<GPUContext>.resolve(.auto, for: .serve) { acceptSoftware in
            guard let context else { throw UnavailableErrors.noContext() }
            try Backend.admit(context, acceptSoftware: acceptSoftware)
            return (context, context.renderer)
        }
        var findings = DoctorFindings(
            clientExtensions: GPUContext.clientExtensions.split(separator: " ").map(String.init),
            devices: devices,
            attempts: attempts.map { Attempt(display: $0.candidate, failure: $0.failure) },
            context: context.map {
                Context(display: $0.displayDescription, vendor: $0.vendor, renderer: $0.renderer, version: $0.version,
                        maxTextureSize: $0.limits.maxTextureSize, maxRenderbufferSize: $0.limits.maxRenderbufferSize,
                        maxViewport: [$0.limits.maxViewport.width, $0.limits.maxViewport.height],
                        gpuEncoding: $0.gpuEncodingProblem().map { "unavailable: \($0)" } ?? ($0.encodesOnGPU(forced: forced) ? "on" : "off"),
                        gpuEncodingForced: forced)
            },
            auto: Auto(backend: auto.gpu == nil ? "cpu" : "gpu",
                       reason: auto.reason ?? context.map { "a hardware GPU: \($0.renderer)" } ?? "no GPU context"))
        if var found = findings.context {
            let on = found.gpuEncoding == "on", gpuSide = on ? "gpu" : "cpu"
            found.gpuEncodingReason = Self.encodingReason(found.gpuEncoding, forced: found.gpuEncodingForced)
            found.gpuEncodingByBackend = ["cpu": "cpu", "gpu": gpuSide, "hybrid": gpuSide, "auto (render)": "cpu",
                                          "auto (batch, serve)": findings.auto.backend == "gpu" ? gpuSide : "cpu"]
            findings.context = found
        }
        return findings
    }

    /// What the GPU-encoding state means, as the report says it.
    static func encodingReason(_ state: String, forced: Bool?) -> String {
        switch (state, forced) {
        case ("on", true?): "forced by GLSLICE_GPU_ENCODE: default and fast PNGs the GPU draws are encoded with compute shaders"
        case ("on", _): "default and fast PNGs the GPU draws are encoded with compute shaders; GLSLICE_GPU_ENCODE=0 turns it off"
        case ("off", false?): "off by GLSLICE_GPU_ENCODE: the CPU encodes every output"
        case ("off", _): "on a software rasteriser the CPU's encoder is faster; GLSLICE_GPU_ENCODE=1 turns it on"
        default: "the CPU encodes every output"
        }
    }

    /// `glslice doctor`'s report: the answer first (which backend `auto` takes, and why; GPU encoding),
    /// then the details it rests on (an entry may hold more than one line).
    package var lines: [String] {
        let findings = self
        var lines: [String] = []
        func print(_ line: String) { lines.append(line) }
        print("--backend auto would take: \(findings.auto.backend) (\(findings.auto.reason))")
        if findings.auto.backend == "gpu" {
            print("'glslice batch --backend auto' takes: hybrid, the GPU with the CPU beside it, as 'glslice serve' does (\(BackendUse.batchAutoFigures))")
        } else {
            print("'glslice batch --backend auto' takes: cpu: 'glslice batch' and 'glslice serve' draw on the CPU here"
                  + (findings.context != nil ? " (said here and in serve's /healthz, not as a warning)" : ""))
            if findings.context != nil { print("  --backend hybrid asks for both sides anyway (\(BackendUse.batchAutoFigures))") }
        }
        print("'glslice render --backend auto' takes: cpu at every size (\(BackendUse.renderAutoFigures); --backend gpu forces GL)")
        if let context = findings.context {
            let state = context.gpuEncoding == "off" ? "available, off" : context.gpuEncoding
            print("GPU encoding: \(state) (\(context.gpuEncodingReason))")
            // The setting matters only where the GPU draws: say so under each backend, auto included.
            if context.gpuEncoding == "on" {
                let auto = findings.auto.backend == "gpu"
                    ? "batch's and serve's auto (hybrid here) too; render's auto draws on the CPU"
                    : "not under auto here, which draws on the CPU (batch, serve and render)"
                print("  it applies to --backend gpu and hybrid; \(auto); --backend cpu encodes on the CPU")
            } else {
                print("  under every backend the CPU encodes: --backend gpu and hybrid draw on the GPU and encode on the CPU")
            }
        }
        print("\nDetails:")
        if let context = findings.context {
            print("Display chosen: \(context.display)")
            print("GL_VENDOR:   \(context.vendor)")
            print("GL_RENDERER: \(context.renderer)")
            print("GL_VERSION:  \(context.version)")
            print("Limits: max texture \(context.maxTextureSize), max renderbuffer \(context.maxRenderbufferSize), "
                  + "max viewport \(context.maxViewport[0])x\(context.maxViewport[1])")
        } else {
            print("""
            No OpenGL ES 3 context. Check:
              - the glvnd vendor files: ls /usr/share/glvnd/egl_vendor.d/ (Mesa: 50_mesa.json; NVIDIA: 10_nvidia.json)
              - __EGL_VENDOR_LIBRARY_FILENAMES, which overrides them (now: \(ProcessInfo.processInfo.environment["__EGL_VENDOR_LIBRARY_FILENAMES"] ?? "unset"))
              - /dev/dri permissions (ls -l /dev/dri; the user needs the render or video group)
              - Mesa for CPU-only machines: apt-get install libegl-mesa0 libgl1-mesa-dri
            """)
        }
        print("Displays tried:")
        for attempt in findings.attempts { print("  \(attempt.display): \(attempt.failure ?? "ok")") }
        print("EGL devices: \(findings.devices.count)")
        for device in findings.devices {
            print("  [\(device.index)] \(device.software ? "software (Mesa)" : "hardware") drm=\(device.drm ?? "-")")
            print("      extensions: \(device.extensions.isEmpty ? "-" : device.extensions.joined(separator: " "))")
        }
        print("EGL client extensions:")
        print(findings.clientExtensions.isEmpty ? "  (none: is libEGL installed? apt-get install libegl1 libegl-mesa0)"
              : findings.clientExtensions.map { "  \($0)" }.joined(separator: "\n"))
        return lines
    }
}

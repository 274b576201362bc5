import ArgumentParser
import GlsliceKit

/// `--backend` and `--gpu`, shared by `render` and `batch`.
struct BackendOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Rendering backend: gpu, cpu or auto (GPU if a context comes up, else CPU with a warning; default auto).", valueName: "B"))
    var backend: String?

    @Option(help: ArgumentHelp("EGL device index to render on (default: GLSLICE_GPU, else hardware first; see 'glslice doctor').", valueName: "N"))
    var gpu: Int?

    func choice() throws -> BackendChoice {
        try backend.map(BackendChoice.init(parsing:)) ?? .auto
    }
}

/// The pixel limits, shared by `render` and `batch`.
struct LimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Refuse sources with more pixels than this.", valueName: "N"))
    var maxSourcePixels: Int = Limits.defaultMaxSourcePixels

    @Option(help: ArgumentHelp("Refuse outputs with more pixels than this.", valueName: "N"))
    var maxOutputPixels: Int = Limits.defaultMaxOutputPixels

    var limits: Limits { Limits(maxSourcePixels: maxSourcePixels, maxOutputPixels: maxOutputPixels) }
}

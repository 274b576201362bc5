/// A backend ready to draw: the CPU reference, or a GPU renderer. Not
/// `Sendable`: a GPU backend lives on the thread that opened it.
package enum Backend {
    case cpu
    case gpu(GPURenderer)

    /// Opens the backend `choice` asks for. `auto` takes the CPU unless a
    /// hardware GPU is there, and calls `warn` once saying why; `gpu` (llvmpipe
    /// included) throws `.unavailable` when no context comes up.
    package static func make(_ choice: BackendChoice, device: Int? = nil, gpuMemory: GPUMemory = GPUMemory(),
                            warn: (String) -> Void = { _ in }) throws -> Backend {
        try make(choice, device: device, singleOutput: nil, gpuMemory: gpuMemory, warn: warn)
    }

    /// Outputs smaller than this, rendered one at a time (`render`), are drawn on
    /// the CPU by `auto` even where a GPU is: opening a GL context takes longer
    /// (65 ms on llvmpipe here; NVIDIA's driver is commonly slower to start) than
    /// the CPU takes to draw them (about 2 ms per megapixel, and encoding, which
    /// both backends do on the CPU, dominates). Batches and serve open the GPU
    /// once for many outputs, so this does not apply to them.
    package static let singleRenderGPUPixels = 1 << 24

    /// `make`, for one output of `singleOutput` (`render`): `auto` takes the CPU
    /// without opening a context when the output is below `singleRenderGPUPixels`.
    package static func make(_ choice: BackendChoice, device: Int?, singleOutput: PixelSize?,
                            gpuMemory: GPUMemory = GPUMemory(), warn: (String) -> Void = { _ in }) throws -> Backend {
        if choice == .auto, let singleOutput, singleOutput.pixelCount < singleRenderGPUPixels { return .cpu }
        switch choice {
        case .cpu:
            return .cpu
        case .gpu, .hybrid:
            return .gpu(try GPURenderer(context: GPUContext.make(device: device), memory: gpuMemory))
        case .auto:
            let (backend, reason) = auto(device: device, gpuMemory: gpuMemory)
            if backend.gpu == nil { warn(reason) }
            return backend
        }
    }

    /// What `auto` takes, and why: a hardware GPU when a context comes up on
    /// one; else the CPU, because a software rasteriser (llvmpipe, softpipe,
    /// swrast) renders slower than the CPU backend and takes more memory.
    package static func auto(device: Int? = nil, gpuMemory: GPUMemory = GPUMemory()) -> (backend: Backend, reason: String) {
        do {
            let context = try GPUContext.make(device: device)
            let verdict = autoVerdict(for: context)
            return (verdict.useGPU ? .gpu(try GPURenderer(context: context, memory: gpuMemory)) : .cpu, verdict.reason)
        } catch {
            return (.cpu, noGPU(error))
        }
    }

    /// `auto`'s one warning when no GPU context comes up: worded here only.
    package static func noGPU(_ error: any Error) -> String {
        "no GPU backend, rendering on the CPU: \(GlsliceError.from(error).message)"
    }

    /// What `batch` draws with for `choice`: `auto` is the CPU on every host.
    /// Measured on an NVIDIA H100 node with 16 cores, hybrid was 0.70× the CPU
    /// on the 2,400-job bench manifest, 1.03× on 20,000 jobs, 0.83× on 400 HD
    /// outputs and 0.97× on 100 4K outputs: a farm's time is PNG encoding, which
    /// is on the CPU either way. `gpu` and `hybrid` stay on request; serve's
    /// `auto` keeps hybrid on a hardware GPU (1.54× the CPU there).
    package static func batchChoice(_ choice: BackendChoice) -> BackendChoice {
        choice == .auto ? .cpu : choice
    }

    /// `auto`'s measured batch figures, for `doctor` and `--help` (see `batchChoice`).
    package static let batchAutoFigures =
        "on an NVIDIA H100 node with 16 cores, hybrid was 0.70-1.03x the CPU in batch (encoding, on the CPU either way, is most of a farm's time)"

    /// Whether a stage with many jobs (`batch`, `serve`) also draws on its CPU
    /// threads beside the GPU it opened: asked for (`hybrid`), or `auto` on a
    /// hardware GPU (on llvmpipe `auto` opens none, and this is false).
    package static func drawsOnBoth(_ choice: BackendChoice, openedGPU: Bool) -> Bool {
        openedGPU && (choice == .hybrid || choice == .auto)
    }

    /// Whether `auto` draws through `context`, and why (also what `doctor` prints).
    package static func autoVerdict(for context: GPUContext) -> (useGPU: Bool, reason: String) {
        context.isSoftware
            ? (false, "GL here is \(context.renderer), a software rasteriser: rendering on the CPU, which is faster (--backend gpu forces GL)")
            : (true, "a hardware GPU: \(context.renderer)")
    }

    /// `cpu`, or `gpu (RENDERER)`.
    package var description: String {
        switch self {
        case .cpu: "cpu"
        case .gpu(let renderer): "gpu (\(renderer.context.renderer))"
        }
    }

    /// The GPU renderer, when this is the GPU backend.
    package var gpu: GPURenderer? {
        if case .gpu(let renderer) = self { return renderer }
        return nil
    }

    package func prepare(_ plan: RenderPlan, source: PremultipliedImage) throws -> any BandRenderer {
        switch self {
        case .cpu: CPURenderer.PlanWithTaps(plan: plan, source: source)
        case .gpu(let renderer): try renderer.upload(plan, source: source)
        }
    }
}

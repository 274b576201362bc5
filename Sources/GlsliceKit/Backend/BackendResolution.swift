/// The backend choice settled for one front end: the one place `--backend`
/// is decided, and the one place its description and warning are worded.
/// `render`, `batch`, `serve`, `parity` and `doctor` all ask `resolve`.
package struct BackendResolution<GPU> {
    /// The GPU side, opened by the caller's opener; nil: the CPU draws everything.
    package var gpu: GPU?
    /// Whether the CPU draws beside the GPU (`hybrid`, or `auto` on a hardware GPU in serve).
    package var drawsOnBoth: Bool
    /// `cpu`, `gpu (RENDERER)`, or `gpu (RENDERER) and cpu (hybrid)`.
    package var description: String
    /// One line to warn with: `auto` found no usable GL context (docs/RENDERING.md §6).
    package var warning: String?
    /// Why `auto` took the CPU over a software rasteriser: information, never a
    /// warning (`doctor` and serve's `/healthz` say it).
    package var reason: String?

    /// Settles `choice` for `use`. `open` opens the GPU side (a session on this
    /// thread, or serve's GPU thread) and names its renderer; with
    /// `acceptSoftware` false it throws `Backend.Declined` over a software
    /// rasteriser. `gpu` and `hybrid` throw what `open` throws; `auto` never does.
    package static func resolve(_ choice: BackendChoice, for use: BackendUse,
                                open: (_ acceptSoftware: Bool) throws -> (gpu: GPU, renderer: String)) throws -> BackendResolution {
        let cpu = BackendResolution(gpu: nil, drawsOnBoth: false, description: "cpu")
        var choice = choice
        switch use {
        case .oneOutput where choice == .auto: return cpu // measured faster at every size (`BackendUse.renderAutoFigures`)
        case .parity: choice = .gpu
        default: break
        }
        let opened: (gpu: GPU, renderer: String)
        switch choice {
        case .cpu:
            return cpu
        case .gpu, .hybrid:
            opened = try open(true)
        case .auto:
            do {
                opened = try open(false)
            } catch let declined as Backend.Declined {
                return BackendResolution(gpu: nil, drawsOnBoth: false, description: "cpu", reason: declined.reason)
            } catch where use == .batch {
                // A batch on a host without GL is the usual CPU farm: a reason, never a warning on every shard.
                return BackendResolution(gpu: nil, drawsOnBoth: false, description: "cpu",
                                         reason: "no GPU backend: \(GlsliceError.from(error).message)")
            } catch {
                return BackendResolution(gpu: nil, drawsOnBoth: false, description: "cpu",
                                         warning: "no GPU backend, rendering on the CPU: \(GlsliceError.from(error).message)")
            }
        }
        // A single output draws on one side; a batch or serve with a GPU for hybrid, or auto's hardware one, on both.
        let both = choice == .hybrid || choice == .auto
        let drawsOnBoth = both && (use == .batch || use == .serve)
        return BackendResolution(gpu: opened.gpu, drawsOnBoth: drawsOnBoth,
                                 description: "gpu (\(opened.renderer))" + (drawsOnBoth ? " and cpu (hybrid)" : ""))
    }

    private init(gpu: GPU?, drawsOnBoth: Bool, description: String, warning: String? = nil, reason: String? = nil) {
        self.gpu = gpu
        self.drawsOnBoth = drawsOnBoth
        self.description = description
        self.warning = warning
        self.reason = reason
    }
}

extension BackendResolution where GPU == GPUSession {
    /// What a single thread draws with: the session, or the CPU.
    package var backend: Backend { gpu.map(Backend.gpu) ?? .cpu }

    /// Settles `choice` for `use` with a GPU session opened on this thread.
    /// `gpuEncoding` forces the session's GPU encoding on or off (nil: the context's default).
    package static func resolve(_ choice: BackendChoice, for use: BackendUse, device: Int?,
                                memory: GPUMemory = GPUMemory(), gpuEncoding: Bool? = nil) throws -> BackendResolution {
        try resolve(choice, for: use) { acceptSoftware in
            let session = try Backend.openSession(device: device, memory: memory, acceptSoftware: acceptSoftware, gpuEncoding: gpuEncoding)
            return (session, session.context.renderer)
        }
    }
}

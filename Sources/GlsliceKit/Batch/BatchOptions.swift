import Foundation

/// What `glslice batch` is asked to do.
public struct BatchOptions: Sendable {
    public var manifest: String
    /// Relative outputs resolve here (created if missing); default the manifest's folder.
    public var outputFolder: String?
    public var backend: BackendChoice = .auto
    public var device: Int?
    /// Render workers (CPU) or encoder threads (GPU).
    public var workers: Int = ProcessInfo.processInfo.activeProcessorCount
    public var results: String?
    /// Outputs may resolve outside `outputFolder` (`..`, absolute paths).
    public var allowOutsideOutputFolder = false
    public var resume = false
    /// `fsync` each output before it is named (`--fsync`).
    public var durable = false
    public var shard = Shard.all
    public var cacheBytes = 256 << 20
    /// GPU readback through a ring of pixel-pack buffers: nil chooses it on real
    /// GPUs (not llvmpipe); `GLSLICE_PBO=0|1` in the environment overrides that.
    public var pixelPackRing: Bool?
    public var limits = Limits()

    public init(manifest: String) { self.manifest = manifest }

    /// The most `workers` a batch takes (`--jobs`).
    public static let maxWorkers = 1024
}

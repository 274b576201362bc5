import Foundation

/// What `glslice batch` is asked to do.
public struct BatchOptions: Sendable {
    public var manifest: String
    /// Relative outputs resolve here (created if missing); default the manifest's folder.
    public var outputFolder: String?
    public var backend: BackendChoice = .auto
    public var device: Int?
    /// Threads of the prepare stage, and of the encode stage (which draws on the CPU).
    public var workers: Int = ProcessInfo.processInfo.activeProcessorCount
    public var results: String?
    /// Outputs may resolve outside `outputFolder` (`..`, absolute paths).
    public var allowOutsideOutputFolder = false
    public var resume = false
    /// Each output also records its job digest inside (a PNG tEXt chunk, a WebP XMP packet), as
    /// outputs did before the resume index: self-describing files, at 56 bytes or more each.
    package var digestChunk = false
    /// `fsync` each output before it is named (`--fsync`).
    public var durable = false
    package var shard = Shard.all
    public var cacheBytes = 256 << 20
    /// How the GPU draw stage runs (pixel-pack ring, memory in flight).
    package var gpu = GPUSettings()
    public var limits = Limits()
    /// Render options every line takes where it says nothing (`--compression small`).
    package var requestDefaults = RequestDefaults.none

    public init(manifest: String) { self.manifest = manifest }

    /// The most `workers` a batch takes (`--jobs`).
    public static let maxWorkers = 1024
}

/// A line of a batch manifest.
public struct ManifestLine: Sendable, Equatable {
    public var manifest: String
    /// 1-based.
    public var number: Int

    public init(manifest: String, number: Int) {
        self.manifest = manifest
        self.number = number
    }
}

/// A job made ready on one backend: renders any band of output rows.
public protocol BandRenderer: AnyObject {
    /// The most rows one `renderRows` call accepts.
    var maxBandRows: Int { get }
    /// Writes rows `band` of premultiplied RGBA8 into `output` (row `band.lowerBound`
    /// first, rows `width × 4` bytes apart), transparent outside every cell.
    func renderRows(_ band: Range<Int>, into output: UnsafeMutablePointer<UInt8>) throws
}

extension CPURenderer.Prepared: BandRenderer {
    public var maxBandRows: Int { Int.max }
}

/// Which renderer draws the pixels.
public enum BackendChoice: String, CaseIterable, Sendable {
    case cpu
    case gpu
    /// The GPU when a context comes up, else the CPU with a one-line warning.
    case auto

    public init(parsing text: String) throws {
        guard let value = BackendChoice(rawValue: text.lowercased()) else {
            throw GlsliceError(.usage, "unknown backend '\(text)' (expected gpu, cpu or auto)")
        }
        self = value
    }
}

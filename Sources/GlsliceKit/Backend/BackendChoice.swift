/// Which renderer draws the pixels.
public enum BackendChoice: String, CaseIterable, Sendable {
    case cpu
    case gpu
    /// A hardware GPU when there is one; else the CPU, with a one-line warning
    /// (no context, or only a software rasteriser such as llvmpipe).
    case auto

    public init(parsing text: String) throws {
        guard let value = BackendChoice(rawValue: text.lowercased()) else {
            throw GlsliceError(.usage, "unknown backend '\(text)' (expected gpu, cpu or auto)")
        }
        self = value
    }
}

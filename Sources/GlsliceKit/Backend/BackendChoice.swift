/// Which backend the user asked to draw the pixels.
public enum BackendChoice: String, CaseIterable, Sendable {
    case cpu
    case gpu
    /// A hardware GPU when there is one; else the CPU, silently (no context, or
    /// only a software rasteriser such as llvmpipe: `doctor` says why). In
    /// `batch`, the CPU on every host (`BackendUse.batch`).
    case auto
    /// The GPU and the CPU together (`batch` and `serve`): the GPU thread draws
    /// what it can take, and a CPU thread that would otherwise wait draws a job
    /// itself. Both write the same bytes (docs/RENDERING.md §5). A single
    /// `render` draws on the GPU. `auto` means this where the GPU is hardware.
    case hybrid

    public init(parsing text: String) throws {
        guard let value = BackendChoice(rawValue: text.lowercased()) else {
            throw UsageErrors.notABackend(text, of: BackendChoice.allCases.map(\.rawValue))
        }
        self = value
    }
}

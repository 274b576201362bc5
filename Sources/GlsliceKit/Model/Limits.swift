/// Limits that keep one bad request from taking the machine down.
public struct Limits: Sendable, Equatable {
    /// Sources above this are refused before their pixels are allocated.
    public var maxSourcePixels: Int
    /// Outputs above this are refused before rendering.
    public var maxOutputPixels: Int

    public static let defaultMaxSourcePixels = 50_000_000
    public static let defaultMaxOutputPixels = 1_000_000_000

    /// Limits a user gave (`--max-source-pixels`, `--max-output-pixels`): both must be positive.
    package static func given(maxSourcePixels: Int, maxOutputPixels: Int) throws -> Limits {
        guard maxSourcePixels > 0, maxOutputPixels > 0 else { throw UsageErrors.pixelLimitsNotPositive() }
        return Limits(maxSourcePixels: maxSourcePixels, maxOutputPixels: maxOutputPixels)
    }

    public init(maxSourcePixels: Int = Limits.defaultMaxSourcePixels,
                maxOutputPixels: Int = Limits.defaultMaxOutputPixels) {
        self.maxSourcePixels = maxSourcePixels
        self.maxOutputPixels = maxOutputPixels
    }
}

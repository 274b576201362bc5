/// A plan made ready on one backend: renders any band of output rows.
/// The CPU and the GPU each have one; nothing after this folder knows which.
package protocol BandRenderer {
    /// The most rows one `renderRows` call accepts.
    var maxBandRows: Int { get }
    /// Writes rows `band` of premultiplied RGBA8 into `output` (row `band.lowerBound`
    /// first, rows `width × 4` bytes apart), transparent outside every cell.
    func renderRows(_ band: Range<Int>, into output: UnsafeMutablePointer<UInt8>) throws
}

extension CPURenderer.PlanWithTaps: BandRenderer {
    package var maxBandRows: Int { Int.max }
}

extension GPURenderer.UploadedPlan: BandRenderer {}

/// A plan made ready on one backend: renders any strip of output rows.
/// The CPU and the GPU each have one; nothing after this folder knows which.
package protocol Drawer {
    /// The most rows one `drawRows` call accepts.
    var maxStripRows: Int { get }
    /// Writes rows `strip` of premultiplied RGBA8 into `output` (row `strip.lowerBound`
    /// first, rows `width × 4` bytes apart), transparent outside every cell.
    func drawRows(_ strip: Range<Int>, into output: UnsafeMutablePointer<UInt8>) throws
}

extension CPUDrawer: Drawer {
    package var maxStripRows: Int { Int.max }
}

extension GPUDrawer: Drawer {}

/// A drawer: a plan made ready on one backend, drawing any strip of output
/// rows. The CPU and the GPU each have one, made only by `Backend`; the engine
/// draws through this protocol, and only the GPU draw loop (which packs small
/// outputs into atlases and reads strips back through a ring) uses the GPU's own.
package protocol Drawer {
    /// The most rows one `drawRows` call accepts.
    var maxStripRows: Int { get }
    /// Writes rows `strip` of premultiplied RGBA8 into `output` (row `strip.lowerBound`
    /// first, rows `width × 4` bytes apart), transparent outside every cell.
    func drawRows(_ strip: Range<Int>, into output: UnsafeMutablePointer<UInt8>) throws
}

extension CPUDrawer: Drawer {
    var maxStripRows: Int { Int.max }
}

extension GPUDrawer: Drawer {}

/// What the encode step writes a job's rows through, whichever format the
/// request settled on: a `PNGEncoder` or a `WebPEncoder`.
protocol ImageEncoder: StripSink {
    func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) throws
    /// Completes the output and names it; the bytes written.
    @discardableResult func finish() throws -> Int
    /// The finished image, for a writer that collects in memory.
    var memoryData: [UInt8]? { get }
    /// Time spent on the file itself (opening, naming), not encoding.
    var fileTime: StageTime { get }
    /// CPU time other threads spent encoding it, which the encoding thread's clock does not see.
    var helperCPU: Duration { get }
    /// Asked just before a file is named: false discards it (`OutputFile.mayName`).
    var mayName: (() -> Bool)? { get set }
    /// Told the complete file's byte count and modification time (ns) just before it is named,
    /// once `mayName` has said yes (`OutputFile.willName`).
    var willName: ((_ bytes: Int, _ modified: Int, _ folder: Int32) -> Void)? { get set }
}

extension PNGEncoder: ImageEncoder {}
extension WebPEncoder: ImageEncoder {}

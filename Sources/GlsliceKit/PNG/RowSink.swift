/// Where rendered bands go, in order: a PNG encoder, or memory.
package protocol RowSink {
    func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int) throws
}

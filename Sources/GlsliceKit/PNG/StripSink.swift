/// Where rendered strips go, in order: a PNG encoder, or memory.
package protocol StripSink {
    func write(premultipliedRows rows: UnsafePointer<UInt8>, count: Int) throws
}

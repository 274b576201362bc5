import CPNG
import Foundation

/// A PNG encoded into memory rather than a named file, for answers that are
/// sent over the network: the encoder writes to a descriptor, and a memfd is
/// one that never touches a disk.
enum MemoryFile {
    /// A fresh memfd, or an unnamed file in /tmp where the kernel has none.
    static func open() throws -> Int32 {
        var fd = gs_open_memory()
        if fd < 0 { fd = gs_open_unnamed(NSTemporaryDirectory()) }
        guard fd >= 0 else { throw GlsliceError(.cannotWrite, "cannot open a file in memory: \(systemError())") }
        return fd
    }

    /// The first `count` bytes of `fd`.
    static func read(_ fd: Int32, count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw readBackError() }
        while bytes.count < count, readAppending(fd, into: &bytes, count: count - bytes.count) > 0 {}
        guard bytes.count == count else { throw readBackError() }
        return bytes
    }

    private static func readBackError() -> GlsliceError {
        GlsliceError(.cannotWrite, "cannot read back an encoded PNG: \(systemError())")
    }
}

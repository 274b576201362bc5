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
    static func read(_ fd: Int32, count: Int) throws -> Data {
        var data = Data(count: count)
        let done: Int = data.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < count {
                let got = pread(fd, base + offset, count - offset, off_t(offset))
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                offset += got
            }
            return offset
        }
        guard done == count else { throw GlsliceError(.cannotWrite, "cannot read back an encoded PNG: \(systemError())") }
        return data
    }
}

import Foundation

/// `strerror(errno)` as a String.
package func systemError() -> String {
    guard let text = strerror(errno) else { return "error \(errno)" }
    return String(validatingCString: text) ?? "error \(errno)"
}

/// Reads up to `count` bytes (at most 1 MiB a call) from `descriptor` onto the
/// end of `bytes` (retrying on EINTR); returns what `read(2)` returned: 0 at
/// the end, −1 on error. Through a scratch buffer: appending `count` zeros
/// first went element by element, 64 KiB a read, which made unoptimised
/// (fuzzing) builds read a small `Contents.json` at four files a second.
func readAppending(_ descriptor: Int32, into bytes: inout [UInt8], count: Int) -> Int {
    let step = max(1, min(count, 1 << 20))
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: step) { scratch -> Int in
        guard let base = scratch.baseAddress else { return -1 }
        var n: Int
        repeat { n = read(descriptor, base, step) } while n < 0 && errno == EINTR
        if n > 0 { bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: n)) }
        return n
    }
}

/// A TCP connection to `port` on 127.0.0.1, its descriptor; nil when it cannot be made.
/// `receiveBuffer`: SO_RCVBUF, set before connecting. For clients that speak raw bytes to a
/// server of this process (the serve tests' misbehaving clients, the fuzz target's queries).
package func loopbackConnection(port: Int, receiveBuffer: Int32? = nil) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        return nil
    }
    return fd
}

extension stat {
    /// The modification time in nanoseconds since the epoch (how a file's identity and the resume
    /// index compare it).
    var modifiedNanoseconds: Int64 { Int64(st_mtim.tv_sec) * 1_000_000_000 + Int64(st_mtim.tv_nsec) }
}

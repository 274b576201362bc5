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

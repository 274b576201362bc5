import Foundation

/// The text of a NUL-terminated C message buffer (the shims report errors this way).
func cMessage(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}

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

/// Swift traps when an allocation fails, so an allocation whose size the
/// input decides is tried first with `malloc`: under `ulimit -v` or a
/// container limit the job then fails with a message instead of aborting.
/// (It is a probe, unmapped at once: the real allocation follows it directly.
/// `mmap`, not `malloc`: the optimiser deletes a malloc/free pair it can see.)
func ensureMemory(_ bytes: Int, for what: @autoclosure () -> String) throws {
    guard bytes > 0 else { return }
    let probe = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
    guard let probe, probe != MAP_FAILED else {
        throw GlsliceError(.badInput, "not enough memory for \(what()) (\(max(1, bytes >> 20)) MiB)")
    }
    munmap(probe, bytes)
}

import Foundation
import Testing
@testable import GlsliceKit

/// Round six, finding 1 (issue 69): the matcher's hash table held positions as `Int32`,
/// so a row past 2 GiB (an RGBA row of 540,000,000 px) trapped at `seen[h] = Int32(i)`.
/// The matcher asked at a byte beyond 2^31 in one giant row, over memory mapped but
/// never touched (zero pages) but for two planted copies of 16 bytes, 500 apart.
struct WideRowMatcherTests {
    @Test func aMatchPast2GiBIsFoundAt64BitPositions() throws {
        let rowBytes = (1 << 31) + (1 << 16), length = rowBytes + 4096
        guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              mapped != MAP_FAILED else {
            Issue.record("cannot map \(length) bytes")
            return
        }
        defer { munmap(mapped, length) }
        let data = mapped.assumingMemoryBound(to: UInt8.self)
        let first = (1 << 31) + 1000, second = first + 500 // both past Int32.max
        let pattern: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2, 1, 11, 12, 13, 14, 15, 16, 17]
        for (k, byte) in pattern.enumerated() { data[first + k] = byte; data[second + k] = byte }
        let deflater = RepeatDeflater(map: .none, width: (rowBytes - 1) / 4, rowBytes: rowBytes, bitsPerPixel: 32)
        let bits = RepeatDeflater.hashBits(rowBytes: rowBytes)
        let seen = UnsafeMutablePointer<Int>.allocate(capacity: 2 << bits)
        seen.initialize(repeating: Int.min, count: 2 << bits)
        defer { seen.deallocate() }
        var matcher = RepeatDeflater.Matcher(data: data, rowStart: 0, rowBytes: rowBytes, pixelBytes: 4, parts: deflater.parts,
                                             oldest: 0, firstHashed: 0, enteredAbove: 0, hashBits: bits, seen: seen)
        // At the first copy: nothing before it agrees (zeros), so no match; the byte is entered.
        #expect(matcher.longest(first, lastDistance: 0).length == 0)
        // At the second: the hash's candidate, 500 back; its 16 bytes and the zeros after both
        // agree up to deflate's longest match, 258 bytes.
        let found = matcher.longest(second, lastDistance: 0)
        #expect(found.length == 258 && found.distance == 500, "\(found)")
    }
}

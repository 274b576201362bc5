/// Per source row and column, the first line with the same pixels: what the plan's
/// repeats (`RepeatMap`) compare instead of pixels. Worked out once per decoded source
/// and kept with it (`SourceCache`), not once per job: on the bench manifest's 2,400
/// jobs from five sources, 4% of `fast`'s encode thread time.
package struct LineClasses: Sendable {
    let rows: [Int32]
    let columns: [Int32]

    init(_ image: PremultipliedImage) {
        rows = Self.rowClasses(image)
        columns = Self.columnClasses(image)
    }

    /// Per source row, the first row with the same pixels.
    private static func rowClasses(_ image: PremultipliedImage) -> [Int32] {
        image.rgba.pixels.withUnsafeBufferPointer { bytes in
            let pixels = UnsafeRawBufferPointer(bytes).bindMemory(to: UInt32.self), width = image.width
            let hashes = (0..<image.height).map { y in
                (0..<width).reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64(pixels[y * width + $1])) &* 0x100_0000_01B3 }
            }
            return classes(count: image.height, hashes: hashes) { a, b in
                (0..<width).allSatisfy { pixels[a * width + $0] == pixels[b * width + $0] }
            }
        }
    }

    /// Per source column, the first column with the same pixels, found in one pass over the rows.
    private static func columnClasses(_ image: PremultipliedImage) -> [Int32] {
        image.rgba.pixels.withUnsafeBufferPointer { bytes in
            let pixels = UnsafeRawBufferPointer(bytes).bindMemory(to: UInt32.self)
            var hashes = [UInt64](repeating: 0xCBF2_9CE4_8422_2325, count: image.width)
            for y in 0..<image.height {
                for x in 0..<image.width { hashes[x] = (hashes[x] ^ UInt64(pixels[y * image.width + x])) &* 0x100_0000_01B3 }
            }
            return classes(count: image.width, hashes: hashes) { a, b in
                (0..<image.height).allSatisfy { pixels[$0 * image.width + a] == pixels[$0 * image.width + b] }
            }
        }
    }

    /// Per line, the first line equal to it, compared only where the hashes agree: the first line
    /// with a hash is its class, and a line whose hash collides with an unequal one looks through
    /// the earlier lines (which never happened on the fixtures).
    private static func classes(count: Int, hashes: [UInt64], equal: (Int, Int) -> Bool) -> [Int32] {
        var first: [UInt64: Int32] = [:]
        first.reserveCapacity(count)
        return (0..<count).map { line in
            guard let earlier = first[hashes[line]] else {
                first[hashes[line]] = Int32(line)
                return Int32(line)
            }
            if equal(Int(earlier), line) { return earlier }
            return Int32((0..<line).first { hashes[$0] == hashes[line] && equal($0, line) } ?? line)
        }
    }
}

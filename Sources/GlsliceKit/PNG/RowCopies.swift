/// How one repeated scanline is written as copies: all of it from the equal
/// row `distance` back, except long stretches that repeat the pixel before
/// them (a stretched 1-px column, a flat fill), which copy from one pixel
/// back. Both are true of every byte they cover, so any cut is valid. A
/// one-pixel distance has 0–1 extra bits a match and a row's up to 13, but
/// each cut adds about two matches (some 48 bits), so a stretch is cut out
/// only where it saves more than that: on the bench manifest, cutting every
/// stretch of 32 bytes or more made the outputs 6% larger than zlib's.
enum RowCopies {
    /// The shortest stretch worth its own copy at this row distance.
    static func minimumStretch(distance: Int, pixelBytes: Int) -> Int {
        let saved = CopyRunBlock.distanceCode(distance).extraBits - CopyRunBlock.distanceCode(pixelBytes).extraBits
        return saved <= 0 ? Int.max : 258 * 48 / saved
    }

    /// Copies covering `row` (filter byte first, `count` bytes), each at least 3 long.
    static func cut(_ row: UnsafePointer<UInt8>, count: Int, distance: Int, pixelBytes: Int) -> [(length: Int, distance: Int)] {
        var copies: [(length: Int, distance: Int)] = []
        let minimumStretch = minimumStretch(distance: distance, pixelBytes: pixelBytes)
        var rowStart = 0 // where the current from-the-row-above copy began
        var k = 1 + pixelBytes
        while k < count {
            guard row[k] == row[k - pixelBytes] else {
                k += 1
                continue
            }
            var j = k + 1
            while j < count && row[j] == row[j - pixelBytes] { j += 1 }
            if j - k >= minimumStretch {
                // A copy is at least 3 long: a shorter row part takes the stretch's first bytes.
                let start = max(k, rowStart + 3)
                copies.append((start - rowStart, distance))
                copies.append((j - start, pixelBytes))
                rowStart = j
            }
            k = j
        }
        let rest = count - rowStart
        if rest >= 3 || copies.isEmpty {
            copies.append((rest, distance))
        } else if rest > 0 {
            // 1 or 2 bytes at the end: the last stretch gives up its last bytes.
            let last = copies.removeLast()
            copies.append((last.length - (3 - rest), last.distance))
            copies.append((3, distance))
        }
        return copies
    }

    /// Whether copies cut so cost no more than zlib's own output for the row.
    /// zlib finds the same copies where a row repeats the pixel before it, but
    /// elsewhere it often finds a nearer period (tiles, spaced tiles) than the
    /// row above, with fewer extra bits: so a row is left to zlib unless most
    /// of it is in one-pixel stretches, or the row distance is short (≤ 256
    /// bytes, at most 6 extra bits). On the bench manifest, copying every
    /// repeated row made the outputs 0.8% larger than zlib's; with this rule
    /// they are no larger.
    static func beatsZlib(_ copies: [(length: Int, distance: Int)], distance: Int) -> Bool {
        if distance <= 256 { return true }
        let fromAbove = copies.reduce(0) { $0 + ($1.distance == distance ? $1.length : 0) }
        let total = copies.reduce(0) { $0 + $1.length }
        return fromAbove * 4 <= total
    }
}

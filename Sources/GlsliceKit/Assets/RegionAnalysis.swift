
/// Looks at each scalable segment of a lattice on a source's pixels.
enum RegionAnalysis {
    static func analyze(_ image: PremultipliedImage, lattice: Lattice) -> [BandAnalysis] {
        lattice.x.filter(\.scalable).map { band($0, axis: .x, image) }
            + lattice.y.filter(\.scalable).map { band($0, axis: .y, image) }
    }

    /// Linear in the band's pixels: each line across the band gets a number
    /// (equal lines, equal numbers), and the smallest period of that sequence
    /// comes from the KMP failure function, instead of testing every period
    /// line by line (cubic: a 2048² source with one odd pixel took 325 s).
    static func band(_ segment: Segment, axis: Axis, _ image: PremultipliedImage) -> BandAnalysis {
        let across = axis == .x ? image.height : image.width
        let lines = lineNumbers(segment, axis: axis, image)
        var content = BandContent.none
        let period = smallestPeriod(lines)
        if period == 1 {
            content = isOneColour(segment, axis: axis, image) ? .solid : .gradient
        } else if lines.count >= 4, period <= lines.count / 2 {
            content = .periodic(period: period)
        }
        return BandAnalysis(axis: axis, segment: segment, content: content, across: across)
    }

    /// One number per line of the band (a column for x, a row for y), equal
    /// exactly when the lines' pixels are equal: hashed, then compared with the
    /// first line of that hash, so a collision cannot make two lines equal.
    static func lineNumbers(_ segment: Segment, axis: Axis, _ image: PremultipliedImage) -> [Int] {
        let across = axis == .x ? image.height : image.width, width = image.width
        return image.rgba.pixels.withUnsafeBytes { raw -> [Int] in
            /// Pixel `t` of line `line`, its four bytes as one number.
            func pixel(_ line: Int, _ t: Int) -> UInt32 {
                let (x, y) = axis == .x ? (line, t) : (t, line)
                return raw.loadUnaligned(fromByteOffset: (y * width + x) * 4, as: UInt32.self)
            }
            func same(_ i: Int, _ j: Int) -> Bool {
                for t in 0..<across where pixel(i, t) != pixel(j, t) { return false }
                return true
            }
            var seen: [Int: [(line: Int, number: Int)]] = [:]
            var numbers: [Int] = []
            numbers.reserveCapacity(segment.length)
            for line in segment.start..<segment.end {
                var hasher = Hasher()
                for t in 0..<across { hasher.combine(pixel(line, t)) }
                let hash = hasher.finalize()
                if let match = seen[hash]?.first(where: { same($0.line, line) }) {
                    numbers.append(match.number)
                } else {
                    seen[hash, default: []].append((line, numbers.count))
                    numbers.append(numbers.count)
                }
            }
            return numbers
        }
    }

    /// The smallest p ≥ 1 with `values[i] == values[i + p]` for every i (the
    /// length itself when none is shorter), from the KMP failure function.
    static func smallestPeriod(_ values: [Int]) -> Int {
        guard values.count > 1 else { return max(1, values.count) }
        var failure = [Int](repeating: 0, count: values.count)
        var k = 0
        for i in 1..<values.count {
            while k > 0 && values[i] != values[k] { k = failure[k - 1] }
            if values[i] == values[k] { k += 1 }
            failure[i] = k
        }
        return values.count - failure[values.count - 1]
    }

    private static func isOneColour(_ segment: Segment, axis: Axis, _ image: PremultipliedImage) -> Bool {
        let first = axis == .x ? image.rgba[segment.start, 0] : image.rgba[0, segment.start]
        let across = axis == .x ? image.height : image.width
        for t in 0..<across {
            if (axis == .x ? image.rgba[segment.start, t] : image.rgba[t, segment.start]) != first { return false }
        }
        return true
    }
}

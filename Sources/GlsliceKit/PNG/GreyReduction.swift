/// `small`'s colour-type reduction (issue 71): an indexed image whose colours are all grey is
/// also written as grey (every pixel opaque: at the fewest bits that hold its levels exactly) or
/// as grey and alpha (8 bits each), as zopflipng writes it, and `PNGEncoder` keeps the smaller
/// file. Neither needs PLTE or tRNS, which are much of a small output: zopflipng wrote 201 of the
/// bench manifest's palette outputs as grey and alpha, and 41 1-bit palettes as 1-bit grey.
struct GreyReduction: Equatable {
    /// 1: grey levels; 2: grey, then alpha.
    let channels: Int
    /// The bits of a grey level (8 with alpha).
    let depth: Int
    /// Per palette index, its level (at `depth`) or grey, and (`channels` 2) its alpha.
    let levels: [UInt8], alphas: [UInt8]

    /// The reduction of a palette (straight RGBA entries, `Palette.rgbaBytes`), or nil where an
    /// entry is not grey (its red, green and blue differ).
    init?(palette rgba: [UInt8]) {
        let entries = rgba.count / 4
        guard entries > 0 else { return nil }
        var greys: [UInt8] = [], alphas: [UInt8] = []
        for entry in 0..<entries {
            let red = rgba[4 * entry], green = rgba[4 * entry + 1], blue = rgba[4 * entry + 2]
            guard red == green, green == blue else { return nil }
            greys.append(red)
            alphas.append(rgba[4 * entry + 3])
        }
        if alphas.allSatisfy({ $0 == 255 }) {
            // A level at `depth` bits stands for level × 255 / (2^depth − 1) (PNG's sample scaling).
            let depth = [1, 2, 4].first { (depth: Int) -> Bool in
                let step = 255 / ((1 << depth) - 1)
                return greys.allSatisfy { Int($0) % step == 0 }
            } ?? 8
            let step = 255 / ((1 << depth) - 1)
            (channels, self.depth, levels, self.alphas) = (1, depth, greys.map { UInt8(Int($0) / step) }, [])
        } else {
            (channels, depth, levels, self.alphas) = (2, 8, greys, alphas)
        }
    }

    /// The reduced rows of an image of `indices`, `channels` bytes a pixel.
    func rows(_ indices: [UInt8]) -> [UInt8] {
        guard channels == 2 else { return indices.map { levels[Int($0)] } }
        var out = [UInt8](repeating: 0, count: 2 * indices.count)
        for (k, index) in indices.enumerated() {
            out[2 * k] = levels[Int(index)]
            out[2 * k + 1] = alphas[Int(index)]
        }
        return out
    }
}

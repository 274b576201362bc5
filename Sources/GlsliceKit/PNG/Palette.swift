/// An image's colours while it has at most 256 of them, so the writer can save
/// it as an indexed PNG. Nine-slice outputs are mostly flat fills, 1-px
/// gradients and small tiles: on the bench manifest 9 in 10 fit, and their
/// files are about a fifth smaller and encode twice as fast (one byte per pixel
/// for zlib instead of three or four). Lossless: an entry is an exact colour.
struct Palette {
    /// The most entries an indexed PNG can hold.
    static let capacity = 256

    /// Straight RGBA pixels as loaded from memory, in first-seen order.
    private(set) var colours: [UInt32] = []
    // Open addressing over 1,024 slots (4 per entry at most): the premultiplied
    // pixel and its index + 1 (0 = empty). Unpremultiplying is one-to-one on
    // premultiplied pixels, so each colour is unpremultiplied once, when first seen.
    private var keys = [UInt32](repeating: 0, count: 1024)
    private var slots = [UInt16](repeating: 0, count: 1024)

    var count: Int { colours.count }

    /// Writes one index per pixel of a premultiplied RGBA8 row; false when the
    /// row holds a 257th colour (`indices` is then partly written).
    mutating func index(premultipliedRow row: UnsafePointer<UInt8>, width: Int,
                        into indices: UnsafeMutablePointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(row)
        var last: UInt32 = 0
        var lastIndex = -1
        for x in 0..<width {
            let colour = raw.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
            if colour != last || lastIndex < 0 {
                lastIndex = lookup(colour)
                if lastIndex < 0 { return false }
                last = colour
            }
            indices[x] = UInt8(truncatingIfNeeded: lastIndex)
        }
        return true
    }

    /// The entry of `colour`, added when new; -1 when the palette is full.
    private mutating func lookup(_ colour: UInt32) -> Int {
        var slot = Int((colour &* 0x9E37_79B1) >> 22)
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { break }
            if keys[slot] == colour { return stored - 1 }
            slot = (slot + 1) & 1023
        }
        guard colours.count < Palette.capacity else { return -1 }
        keys[slot] = colour
        slots[slot] = UInt16(colours.count + 1)
        var straight: UInt32 = 0
        withUnsafeBytes(of: colour) { premultiplied in
            withUnsafeMutableBytes(of: &straight) { out in
                guard let source = premultiplied.bindMemory(to: UInt8.self).baseAddress,
                      let destination = out.bindMemory(to: UInt8.self).baseAddress else { return }
                Premultiply.unpremultiply(source, into: destination, count: 1)
            }
        }
        colours.append(straight)
        return colours.count - 1
    }

    /// The RGBA8 row that `indices` stand for.
    func expand(_ indices: UnsafePointer<UInt8>, width: Int, into row: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(row)
        colours.withUnsafeBufferPointer { colours in
            for x in 0..<width {
                raw.storeBytes(of: colours[Int(indices[x])], toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }

    /// The entries as RGBA8 bytes, in index order, for PLTE and tRNS.
    var rgbaBytes: [UInt8] {
        colours.withUnsafeBytes { Array($0) }
    }
}

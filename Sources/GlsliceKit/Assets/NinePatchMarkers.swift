import Foundation

/// Writes a nine-patch's markers back around its artwork.
package enum NinePatchMarkers {
    /// The padding Android assumes where no padding markers are drawn: from
    /// the first stretch run's start to the last one's end (none on an axis
    /// that scales whole).
    package static func impliedPadding(_ lattice: Lattice) -> PixelInsets {
        func ends(_ segments: [Segment], _ length: Int) -> (Int, Int) {
            let stretch = segments.filter(\.scalable)
            guard segments.count > 1, let first = stretch.first, let last = stretch.last else { return (0, 0) }
            return (first.start, length - last.end)
        }
        let x = ends(lattice.x, lattice.width), y = ends(lattice.y, lattice.height)
        return PixelInsets(top: y.0, left: x.0, bottom: y.1, right: x.1)
    }

    /// The artwork inside a transparent 1-px border: black stretch runs on the
    /// top and left; the padding run on the bottom and right unless it equals
    /// what the stretch runs imply; red runs for optical bounds. Read back, it
    /// must give the same lattice and bounds, or it is refused.
    package static func bordered(_ artwork: PremultipliedImage, lattice: Lattice, bounds: NinePatchBounds, file: String) throws -> PremultipliedImage {
        let w = artwork.width, h = artwork.height, W = w + 2
        var pixels = [UInt8](repeating: 0, count: W * (h + 2) * 4)
        func set(_ x: Int, _ y: Int, _ p: [UInt8]) { pixels.replaceSubrange(((y * W + x) * 4)..<((y * W + x) * 4 + 4), with: p) }
        let black: [UInt8] = [0, 0, 0, 255], red: [UInt8] = [255, 0, 0, 255]
        for y in 0..<h { for x in 0..<w { set(x + 1, y + 1, artwork.rgba[x, y]) } }
        let allScalableX = lattice.x.count == 1, allScalableY = lattice.y.count == 1
        for s in lattice.x where s.scalable && !allScalableX { for x in s.start..<s.end { set(x + 1, 0, black) } }
        for s in lattice.y where s.scalable && !allScalableY { for y in s.start..<s.end { set(0, y + 1, black) } }
        let implied = impliedPadding(lattice)
        let p = bounds.padding, o = bounds.optical
        if (p.left, p.right) != (implied.left, implied.right), p.left < w - p.right {
            for x in p.left..<(w - p.right) { set(x + 1, h + 1, black) }
        }
        if (p.top, p.bottom) != (implied.top, implied.bottom), p.top < h - p.bottom {
            for y in p.top..<(h - p.bottom) { set(w + 1, y + 1, black) }
        }
        for x in 0..<min(o.left, w) { set(x + 1, h + 1, red) }
        for x in max(0, w - o.right)..<w where o.right > 0 { set(x + 1, h + 1, red) }
        for y in 0..<min(o.top, h) { set(w + 1, y + 1, red) }
        for y in max(0, h - o.bottom)..<h where o.bottom > 0 { set(w + 1, y + 1, red) }
        let image = PremultipliedImage(RGBAImage(width: W, height: h + 2, pixels: pixels))
        let reread = try NinePatch(parsing: image.straight())
        guard reread.lattice == lattice, reread.bounds == bounds else {
            throw InputErrors.boundsDoNotFitSmaller(file)
        }
        return image
    }
}

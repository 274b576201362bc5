/// `a·(1−w) + b·w` per channel and texel, unrounded (16 fractional bits).
/// Wrapping arithmetic, because it cannot wrap: each sum is at most
/// 255 × 2¹⁶ (the weights add up to 2¹⁶), and without overflow checks the
/// loop vectorizes (the checked form was most of a batch's drawing time).
@inline(__always)
func blendRows(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, weight: UInt32, count: Int,
               into out: UnsafeMutablePointer<UInt32>) {
    let w1 = weight, w0 = AxisTaps.one &- weight
    for i in 0..<count {
        let p = a[i], q = b[i], o = out + (i &* 4)
        o[0] = (p & 0xff) &* w0 &+ (q & 0xff) &* w1
        o[1] = (p >> 8 & 0xff) &* w0 &+ (q >> 8 & 0xff) &* w1
        o[2] = (p >> 16 & 0xff) &* w0 &+ (q >> 16 & 0xff) &* w1
        o[3] = (p >> 24) &* w0 &+ (q >> 24) &* w1
    }
}

/// `a·(1−w) + b·w` per channel, rounded to nearest; `w` in 1/65536. Each
/// channel's sum is at most 255 × 2¹⁶ + 2¹⁵, and its result at most 255.
@inline(__always)
func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let wb = w, wa = AxisTaps.one &- w
    @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
        let v = ((a >> shift & 0xff) &* wa &+ (b >> shift & 0xff) &* wb &+ (1 << 15)) >> 16
        return v << shift
    }
    return channel(0) | channel(8) | channel(16) | channel(24)
}

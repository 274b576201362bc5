/// zlib settings. Every level writes rows with the None filter (`ScanlineCompressor`): on the bench
/// manifest's 2,400 nine-slice outputs (flat colour, 1-px gradients, tiles)
/// None at level 6 gave 3.94 MB against 4.41 MB for a fixed Up filter and
/// 4.07 MB for libpng's adaptive choice, at the speed of Up and 1.6× that of
/// adaptive; at level 9 it gave 3.68 MB, twice as fast as adaptive at 9.
extension Compression {
    var zlibLevel: Int32 {
        switch self {
        case .fast: 1
        case .default: 6
        case .small: 9
        }
    }
}

import CPNG
import Foundation

/// `small`'s other try on an image of one piece (issue 71): its rows filtered by the PNG filter
/// whose bytes sum least, row by row (Sub, Average and Paeth too, where glslice's own deflate
/// filters None or Up, which suit its copies), coded by libdeflate at level 9. On 40 outputs of
/// the small farm this coded 13,800 bytes of image data against zopflipng's 14,845 and `small`'s
/// zlib 9 or own 16,584, at 0.4 ms an output (level 12 was 13,943 in 29x the time).
enum SmallFilters {
    /// libdeflate's level: 9 (its longest lazy chains) was smaller and 30x faster than 12 there.
    static let level: Int32 = 9

    /// The piece's rows (`rowBytes` each, from `data`, filtered None or Up by `RowFilter` where
    /// `filtered`) refiltered and coded as one final raw deflate stream, with the Adler-32 of the
    /// rows as coded; nil where memory or libdeflate fail.
    static func coded(_ data: UnsafePointer<UInt8>, rows: Int, rowBytes: Int, filtered: Bool, pixelBytes: Int)
        -> (bytes: [UInt8], adler: UInt32)? {
        let count = rows * rowBytes
        guard rows > 0 else { return nil }
        let raw = filtered ? RowFilter.unfiltered(data, count: count, rowBytes: rowBytes) : Array(UnsafeBufferPointer(start: data, count: count))
        var refiltered = [UInt8](repeating: 0, count: count)
        let status = raw.withUnsafeBufferPointer { raw in
            refiltered.withUnsafeMutableBufferPointer { out in
                gs_filter_least_sum(raw.baseAddress, rows, rowBytes, max(1, pixelBytes), out.baseAddress)
            }
        }
        guard status == 0 else { return nil }
        return refiltered.withUnsafeBufferPointer { rows -> (bytes: [UInt8], adler: UInt32)? in
            guard let base = rows.baseAddress else { return nil }
            var out: UnsafeMutablePointer<UInt8>?
            let length = gs_libdeflate_raw(base, count, level, &out)
            guard length > 0, let out else { return nil }
            defer { free(out) }
            return (Array(UnsafeBufferPointer(start: out, count: length)), libdeflate_adler32(1, base, count))
        }
    }
}

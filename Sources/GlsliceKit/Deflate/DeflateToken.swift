/// One symbol of a deflate stream before it is coded (RFC 1951 §3.2.5): a
/// literal byte, or a match, "copy `length` bytes from `distance` back" (3–258
/// bytes, 1–32,768 back; a distance shorter than the length repeats a period).
/// Issue 42's encoder makes these from the plan's repeats, without searching;
/// `DeflateBlockWriter` codes them.
package struct DeflateToken: Sendable, Equatable {
    /// A literal (< 256), or `matchFlag` | length << `lengthShift` | distance: the same word a
    /// GPU pass writes (`ShaderRecords` gives the shaders these names).
    let packed: UInt32

    /// The longest match (RFC 1951 §3.2.5).
    static let maxLength = 258
    /// A match's word: this bit set, its length (`lengthMask`) above `lengthShift`, its distance
    /// below (`distanceMask`).
    static let matchFlag: UInt32 = 0x8000_0000
    static let lengthShift: UInt32 = 16
    static let lengthMask: UInt32 = 0x1FF
    static let distanceMask: UInt32 = 0xFFFF

    /// The end-of-block symbol of the literal/length alphabet (RFC 1951 §3.2.5), after the 256 literals.
    static let endOfBlock = 256

    static func literal(_ byte: UInt8) -> DeflateToken { DeflateToken(packed: UInt32(byte)) }

    /// A match of 3–258 bytes, 1–32,768 back (`isMatch(length:distance:)`): the caller keeps it
    /// so (`RepeatDeflater.appendMatch`, the one, writes literals otherwise), with no check here
    /// that could stop a server on an encoder's bug.
    static func match(length: Int, distance: Int) -> DeflateToken {
        DeflateToken(packed: matchFlag | (UInt32(truncatingIfNeeded: length) & lengthMask) << lengthShift | UInt32(truncatingIfNeeded: distance) & distanceMask)
    }

    /// Whether deflate can write a match of `length` bytes `distance` back (RFC 1951 §3.2.5).
    static func isMatch(length: Int, distance: Int) -> Bool { (3...maxLength).contains(length) && (1...maxDistance).contains(distance) }

    /// The furthest back a match reaches (RFC 1951's 32 KiB window).
    static let maxDistance = 32768

    var isMatch: Bool { packed & Self.matchFlag != 0 }
    var literal: Int { Int(packed & 0xFF) }
    var length: Int { Int(packed >> Self.lengthShift & Self.lengthMask) }
    var distance: Int { Int(packed & Self.distanceMask) }

    // The length and distance alphabets: base values and extra bits of each code.
    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                               4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// Per length 0...258, its code's index (into `lengthBase`).
    static let lengthCode: [UInt8] = (0...maxLength).map { length in UInt8(lengthBase.lastIndex { $0 <= length } ?? 0) }
    /// Per distance − 1, its code.
    static let distanceCode: [UInt8] = (0..<32768).map { d in UInt8(distanceBase.lastIndex { $0 <= d + 1 } ?? 0) }
}

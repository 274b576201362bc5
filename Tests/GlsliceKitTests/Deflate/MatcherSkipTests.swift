import Testing
@testable import GlsliceKit

/// The matcher skips bytes after a run of misses (`RepeatDeflater.skipShift`): one RGB row of
/// noise in which no byte equals the one a pixel (3 bytes) back, and 8 bytes planted that copy
/// bytes 1-8. By the rule, written out here: each byte the matcher is asked for and misses counts
/// (the filter byte first); after the `n`th, `min(n >> 5, 7)` bytes go unasked. So bytes 0-31 are
/// asked, 32 is skipped, then odd bytes are asked and even ones skipped up to byte 95.
struct MatcherSkipTests {
    static let rowBytes = 1 + 200 * 3

    /// The row, and the first byte of each token, with `planted` bytes 1-8 copied there.
    static func tokens(planted: Int, nearAt: Int? = nil) -> [DeflateToken] {
        var rng = SeededGenerator(seed: 4242)
        var row = [UInt8](repeating: 0, count: rowBytes)
        for i in 1..<rowBytes {
            repeat { row[i] = UInt8.random(in: 0...255, using: &rng) } while i >= 3 && row[i] == row[i - 3]
        }
        for k in 0..<8 { row[planted + k] = row[1 + k] }
        // A byte equal to the one a pixel back: a near miss, which starts the count again.
        if let nearAt { row[nearAt] = row[nearAt - 3] }
        let deflater = RepeatDeflater(map: .none, width: 200, rowBytes: rowBytes, bitsPerPixel: 24)
        return row.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: 1) }
    }

    /// (literals before the match, the match's length and distance), and literals after it.
    static func shape(_ tokens: [DeflateToken]) -> (before: Int, length: Int, distance: Int, after: Int)? {
        guard let at = tokens.firstIndex(where: \.isMatch), tokens.filter(\.isMatch).count == 1 else { return nil }
        return (at, tokens[at].length, tokens[at].distance, tokens.count - at - 1)
    }

    @Test func aRepeatAtAnAskedByteIsFound() throws {
        // Byte 35 is asked: the 8 bytes from 1 are found, 34 back.
        let found = try #require(Self.shape(Self.tokens(planted: 35)))
        #expect(found.before == 35 && found.length == 8 && found.distance == 34 && found.after == Self.rowBytes - 43)
    }

    @Test func aRepeatAtASkippedByteIsFoundFromTheNextAskedOne() throws {
        // Byte 32 is skipped: the match starts at 33 (bytes 2-8, 7 of them), 31 back.
        let found = try #require(Self.shape(Self.tokens(planted: 32)))
        #expect(found.before == 33 && found.length == 7 && found.distance == 31 && found.after == Self.rowBytes - 40)
        // Byte 96 too (after the 64th miss, at byte 95, two are skipped): from 98, bytes 3-8.
        let later = try #require(Self.shape(Self.tokens(planted: 96)))
        #expect(later.before == 98 && later.length == 6 && later.distance == 95)
    }

    @Test func aNearMissStartsTheCountAgain() throws {
        // Byte 31 equals byte 28: no miss counted there, so byte 32 is asked and the whole 8 bytes found.
        let found = try #require(Self.shape(Self.tokens(planted: 32, nearAt: 31)))
        #expect(found.before == 32 && found.length == 8 && found.distance == 31)
    }
}

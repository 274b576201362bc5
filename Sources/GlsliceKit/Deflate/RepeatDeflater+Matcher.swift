import CPNG
import Foundation

/// `RepeatDeflater`'s state while it chooses a row: the matcher, the match being gathered, and the tokens.
extension RepeatDeflater {
    /// The matcher of one row (`chooseRow`): the longest match at `i` of `minMatch` (3) bytes or more
    /// (3 only within `shortMatchReach`), ending in the row, among one pixel back, one row back, one row
    /// back one and two pixels either side, the last match's distance, the last two places with the same
    /// three bytes (entering `i` there) and, in RGB or RGBA rows, two rows back a pixel either side, in
    /// palette and grey rows 2, 3 and 4 rows back; a tie
    /// keeps the one tried first. The rows above a pixel or two either side are where a stretched
    /// (linear) gradient's pixels recur, as zlib's chains find them: 64² noise stretched to 4000², 0.6%,
    /// 0.1% and 0.14% smaller (two rows back made palette rows 0.5% larger). A candidate is tried only
    /// where its first three bytes agree. Its hash table holds
    /// the bytes from `firstHashed` (the row above, its last `hashReach` bytes) up to the byte being
    /// matched: the row above is entered whole when the matcher is first asked, the row's own bytes as
    /// it is asked. State in a struct, as `Shaders/deflate_tokens.comp` keeps it in variables (nested
    /// functions sharing the match state cost a dynamic exclusivity check and heap boxes a row).
    struct Matcher {
        let data: UnsafePointer<UInt8>
        let rowStart: Int, rowEnd: Int, rowBytes: Int, pixelBytes: Int, oldest: Int, firstHashed: Int
        /// The row's parts (`RepeatDeflater.parts`), for entering the row above part by part.
        let parts: [(end: Int, period: Int)]
        /// From where every byte of the row before, but its last 2, was entered as it was asked.
        let enteredAbove: Int
        let hashShift: UInt32
        /// Where each 3-byte hash was last seen, and (`seen2`) where before that: 64-bit
        /// positions, as a row may be longer than 2 GiB (round six: `Int32(i)` trapped past it).
        let seen: UnsafeMutablePointer<Int>, seen2: UnsafeMutablePointer<Int>
        var hashedRowAbove = false

        init(data: UnsafePointer<UInt8>, rowStart: Int, rowBytes: Int, pixelBytes: Int, parts: [(end: Int, period: Int)], oldest: Int,
             firstHashed: Int, enteredAbove: Int, hashBits: Int, seen: UnsafeMutablePointer<Int>) {
            self.data = data
            self.parts = parts
            self.rowStart = rowStart
            rowEnd = rowStart + rowBytes
            self.rowBytes = rowBytes
            self.pixelBytes = pixelBytes
            self.oldest = oldest
            self.firstHashed = firstHashed
            self.enteredAbove = enteredAbove
            hashShift = UInt32(32 - hashBits)
            self.seen = seen
            seen2 = seen + (1 << hashBits)
        }

        /// Bytes `i..<i + 3`, little-endian: what is hashed and first compared.
        @inline(__always) private func word(_ i: Int) -> UInt32 {
            UInt32(UInt16(littleEndian: UnsafeRawPointer(data + i).loadUnaligned(as: UInt16.self))) | UInt32(data[i + 2]) << 16
        }

        /// 1 where the three bytes at `candidate` are `here`, else 0 (no branch).
        @inline(__always) private func agrees(_ candidate: Int, _ here: UInt32) -> UInt32 {
            UnsafeRawPointer(data + candidate).loadUnaligned(as: UInt32.self) & 0xFF_FFFF == here ? 1 : 0
        }

        /// The match at `i` from `candidate`, if its first three bytes agree, it is within reach and
        /// longer than `best`, and not 3 bytes from further than `shortMatchReach`: then `best` and
        /// `bestDistance` become its length and distance.
        /// `lowest`: the first byte in reach (`oldest`, or 32 KiB back). A candidate before `i` may load
        /// four bytes: its fourth is at most `i + 2`, in the row (half the matcher's time on noise was its
        /// eleven three-byte loads and checks).
        @inline(__always)
        private func consider(_ candidate: Int, at i: Int, lowest: Int, here: UInt32, limit: Int, best: inout Int, bestDistance: inout Int) {
            guard candidate >= lowest, candidate < i,
                  UnsafeRawPointer(data + candidate).loadUnaligned(as: UInt32.self) & 0xFF_FFFF == here else { return }
            let length = RepeatDeflater.agreeing(data, candidate, i, from: 3, limit: limit), distance = i &- candidate
            if length > best, length > RepeatDeflater.minMatch || distance <= RepeatDeflater.shortMatchReach { (best, bestDistance) = (length, distance) }
        }

        /// The longest match at `i` (length 0: none of 3 bytes), `lastDistance` the last match's distance.
        mutating func longest(_ i: Int, lastDistance: Int) -> (length: Int, distance: Int) {
            let limit = min(DeflateToken.maxLength, rowEnd - i)
            guard limit >= RepeatDeflater.minMatch else { return (0, 0) }
            let here = word(i), lowest = max(oldest, i &- RepeatDeflater.maxDistance)
            var best = 0, bestDistance = 0
            consider(i - pixelBytes, at: i, lowest: lowest, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
            // The row above, there and one and two pixels either side: when all five are in reach and
            // before `i` (as on every row but the first), their first bytes are compared before any check.
            let above = i &- rowBytes, pixel = pixelBytes
            let aboveInReach = above &- 2 &* pixel >= lowest && rowBytes > 2 &* pixel
            if aboveInReach {
                // The five first-byte checks at once, into a mask of those that agree, tried in the
                // same order (bit k: above, then +1, -1, +2, -2 pixels): on noise, one branch, not five.
                var agree = agrees(above, here) | agrees(above &+ pixel, here) << 1 | agrees(above &- pixel, here) << 2
                    | agrees(above &+ 2 &* pixel, here) << 3 | agrees(above &- 2 &* pixel, here) << 4
                while agree != 0, best < limit {
                    let k = agree.trailingZeroBitCount, step = (k + 1) >> 1
                    agree &= agree &- 1
                    consider(above &+ (k & 1 == 1 ? step &* pixel : -(step &* pixel)), at: i, lowest: lowest, here: here, limit: limit,
                             best: &best, bestDistance: &bestDistance)
                }
            } else {
                for candidate in [above, above &+ pixel, above &- pixel, above &+ 2 &* pixel, above &- 2 &* pixel] where best < limit {
                    consider(candidate, at: i, lowest: lowest, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
                }
            }
            if best < limit, lastDistance > 0, lastDistance != pixelBytes, lastDistance != rowBytes {
                consider(i - lastDistance, at: i, lowest: lowest, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
            }
            if !hashedRowAbove {
                hashedRowAbove = true
                enterRowAbove()
            }
            let h = Int((here &* RepeatDeflater.hashMultiplier) >> hashShift)
            if best < limit, seen[h] >= firstHashed {
                consider(seen[h], at: i, lowest: lowest, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
            }
            if best < limit, seen2[h] >= firstHashed {
                consider(seen2[h], at: i, lowest: lowest, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
            }
            if pixel >= 3 {
                // Two rows back, a pixel either side (RGB and RGBA rows).
                let twoAbove = above &- rowBytes, inReach = twoAbove &- pixel >= lowest
                for candidate in [twoAbove &+ pixel, twoAbove &- pixel] where best < limit {
                    if !inReach || UnsafeRawPointer(data + candidate).loadUnaligned(as: UInt32.self) & 0xFF_FFFF == here {
                        consider(candidate, at: i, lowest: lowest, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
                    }
                }
            }
            if pixel < 3 {
                // Rows 2-4 back, the same column, in palette and grey rows: a dither's period (a
                // 1-bit Bayer dither's rows repeat 4 back: 5.0x zlib 6's bytes without them, 0.88x with).
                var back = above
                for _ in 0..<3 where best < limit {
                    back = back &- rowBytes
                    consider(back, at: i, lowest: lowest, here: here, limit: limit, best: &best, bestDistance: &bestDistance)
                }
            }
            seen2[h] = seen[h]
            seen[h] = i
            if best > 0, best < limit, parts.count > 1, parts.count <= RepeatDeflater.maxWalkParts,
               let back = walkedBack(i - bestDistance, length: best, at: i, reach: limit) {
                // The walked-back place agrees for `best` bytes (the plan's period); taken where the
                // next bytes (up to 4) agree too. The match being gathered then runs on at its distance
                // (the next byte's "last match's distance"), so the GPU's twin needs no loop of its own.
                let more = RepeatDeflater.agreeing(data, back + best, i + best, from: 0, limit: min(4, limit - best))
                if more > 0 { (best, bestDistance) = (best + more, i - back) }
            }
            return (best, bestDistance)
        }

        /// `candidate`, where its match of `length` bytes ran exactly to the end of a periodic part of
        /// its row (`parts`), walked back whole periods to the nearest place from which that part's
        /// bytes run on for `reach` bytes (as far as the part's first period, `oldest` and `maxDistance`
        /// allow); nil elsewhere. The best match found in a tiled row above often starts near that row's
        /// end and meets its cap, while the same bytes some periods back run on: a diagonal tile's row is
        /// the row above's, shifted (a 20,000 x 1,000 tile 1.3% smaller).
        @inline(__always)
        private func walkedBack(_ candidate: Int, length: Int, at i: Int, reach: Int) -> Int? {
            // The candidate's row: this one, or whole rows back (no division of a negative number).
            let rowOf = candidate >= rowStart ? rowStart : rowStart - (rowStart - candidate + rowBytes - 1) / rowBytes * rowBytes
            let offset = candidate - rowOf
            // The part holding `offset`: how many parts end at or before it, in 16 halvings.
            var k = 0, step = RepeatDeflater.maxWalkParts / 2
            while step > 0 {
                if k + step <= parts.count - 1, parts[k + step - 1].end <= offset { k += step }
                step /= 2
            }
            let period = parts[k].period, start = k > 0 ? parts[k - 1].end : 0
            guard period > 0, candidate + length == rowOf + parts[k].end else { return nil }
            let lowest = max(rowOf + start - period, oldest, i - RepeatDeflater.maxDistance)
            let reaches = rowOf + parts[k].end - reach // from here or before, the part's bytes run on for `reach`
            guard candidate > reaches, candidate - period >= lowest else { return nil }
            return candidate - min((candidate - reaches + period - 1) / period, (candidate - lowest) / period) * period
        }

        /// Enters the row above from `firstHashed` (only its last 2 bytes when the row before entered
        /// every other one as it was asked), part by part, so a tiled part skips what its period
        /// repeats (`gs_hash_enter`).
        private func enterRowAbove() {
            var j = enteredAbove <= firstHashed ? max(firstHashed, rowStart - (RepeatDeflater.minMatch - 1)) : firstHashed
            let above = rowStart - rowBytes
            for part in parts where above + part.end > j {
                let to = above + part.end
                gs_hash_enter(data, j, to, rowStart, seen, seen2, hashShift, part.period > 0 ? part.period : pixelBytes, RepeatDeflater.hashMultiplier)
                j = to
            }
        }
    }

    /// How many bytes from `from` on agree at `a` and `b`, up to `limit`: 8 at a time,
    /// the first that differs found from their difference's lowest set bit (little-endian).
    @inline(__always)
    static func agreeing(_ data: UnsafePointer<UInt8>, _ a: Int, _ b: Int, from: Int, limit: Int) -> Int {
        var n = from
        while n + 8 <= limit {
            let x = UnsafeRawPointer(data + a + n).loadUnaligned(as: UInt64.self) ^ UnsafeRawPointer(data + b + n).loadUnaligned(as: UInt64.self)
            if x != 0 { return n + UInt64(littleEndian: x).trailingZeroBitCount >> 3 }
            n += 8
        }
        while n < limit, data[a + n] == data[b + n] { n += 1 }
        return n
    }

    /// A run joined at a seam (`MatchRun.flush`): its tokens (indices in the piece's buffer) and its first byte.
    struct JoinedRun {
        var tokens: Range<Int>
        var start: Int
    }

    /// How far `TokenBuffer.walk` has counted: the next token's index, where it starts, the count so far,
    /// and the next joined run to look for.
    struct EarlyWalk {
        var index = 0, position = 0, count = 0, joined = 0
    }

    /// The match being gathered, carried from row to row within a unit: `length`
    /// bytes from `start`, `distance` back (the matcher's "last match's distance"
    /// after it is flushed, until the unit ends).
    struct MatchRun {
        var start = 0
        var length = 0
        var distance = 0
        /// The unit before's last run, its tokens from `from` on, which this unit's first run joins where
        /// it starts the unit (`unitStart`) at the same distance (`RepeatDeflater.seamJoins`).
        struct Seam {
            var unitStart: Int
            var start: Int, length: Int, distance: Int
            var from: Int
        }
        var seam: Seam?
        /// Runs written so far (`flush`).
        var flushes = 0
        /// Where this unit's first run was joined to the unit before's last: the joined run's tokens and where
        /// it starts (the GPU counts them all in that row: `PieceGuard.early`).
        var joined: JoinedRun?

        /// Writes the match as tokens, if any: with the unit before's last run as one, cut once, where it
        /// is the unit's first and they meet at one distance (the GPU's seam pass does the same).
        mutating func flush(_ data: UnsafePointer<UInt8>, pixel: Int, oldest: Int, tokens: inout TokenBuffer) {
            if length > 0 { flushes += 1 }
            if let seam, length > 0 {
                self.seam = nil
                if start == seam.unitStart, distance == seam.distance {
                    tokens.truncate(to: seam.from)
                    RepeatDeflater.appendMatch(data, at: seam.start, length: seam.length + length, distance: distance, pixel: pixel, oldest: oldest,
                                               tokens: &tokens)
                    joined = JoinedRun(tokens: seam.from..<tokens.count, start: seam.start)
                    length = 0
                    return
                }
            }
            RepeatDeflater.appendMatch(data, at: start, length: length, distance: distance, pixel: pixel, oldest: oldest, tokens: &tokens)
            length = 0
        }

        /// `count` bytes at `at`, `distance` back: the same match where it meets this one at its
        /// distance, else a new one (this one written first).
        @inline(__always)
        mutating func extend(at: Int, count: Int, distance: Int, _ data: UnsafePointer<UInt8>, pixel: Int, oldest: Int,
                             tokens: inout TokenBuffer) {
            if length > 0, distance == self.distance, start + length == at {
                length += count
            } else {
                flush(data, pixel: pixel, oldest: oldest, tokens: &tokens)
                (start, length, self.distance) = (at, count, distance)
            }
        }
    }
}

extension RepeatDeflater {
    /// The tokens being chosen, in memory of their own: an append is a store and
    /// a count (an array's append checked its uniqueness and capacity each time,
    /// a token a byte on noise). Freed by its owner (`deallocate`).
    struct TokenBuffer {
        private var base: UnsafeMutablePointer<DeflateToken>
        private var capacity: Int
        private(set) var count = 0

        init(capacity: Int) {
            self.capacity = max(16, capacity)
            base = .allocate(capacity: self.capacity)
        }

        @inline(__always)
        mutating func append(_ token: DeflateToken) {
            if count == capacity { grow() }
            (base + count).initialize(to: token)
            count += 1
        }

        private mutating func grow() {
            let larger = UnsafeMutablePointer<DeflateToken>.allocate(capacity: 2 * capacity)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            (base, capacity) = (larger, 2 * capacity)
        }

        /// Tokens `range`, copied out.
        func array(_ range: Range<Int>) -> [DeflateToken] { Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)) }

        /// Counts the tokens from `walk.index` up to `end` that start in `bytes`, as the GPU counts a row's
        /// (`PieceGuard.early`): each where it starts, but a run joined at a seam (`joined`, in order, from
        /// `walk.joined` on) all where the run starts. `walk.position`: where the token at `walk.index` starts.
        /// Stops at the first token that starts past `bytes`.
        func walk(_ walk: inout EarlyWalk, to end: Int, counting bytes: Range<Int>, joined: [JoinedRun]) {
            while walk.index < end, walk.position < bytes.upperBound {
                while walk.joined < joined.count, joined[walk.joined].tokens.upperBound <= walk.index { walk.joined += 1 }
                if walk.joined < joined.count, joined[walk.joined].tokens.lowerBound == walk.index {
                    let run = joined[walk.joined]
                    if bytes.contains(run.start) { walk.count += run.tokens.count }
                    for k in run.tokens { walk.position += base[k].isMatch ? base[k].length : 1 }
                    walk.index = run.tokens.upperBound
                    continue
                }
                let token = base[walk.index]
                if walk.position >= bytes.lowerBound { walk.count += 1 }
                walk.position += token.isMatch ? token.length : 1
                walk.index += 1
            }
        }

        /// Keeps the first `n` tokens only.
        mutating func truncate(to n: Int) { count = min(count, n) }

        /// Drops the first `n` tokens, moving the rest to the front.
        mutating func removeFirst(_ n: Int) {
            base.moveUpdate(from: base + n, count: count - n)
            count -= n
        }

        func deallocate() { base.deallocate() }
    }
}

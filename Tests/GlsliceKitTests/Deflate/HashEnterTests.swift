import CPNG
import Testing

/// `gs_hash_enter` skips positions whose word recurs one and two periods on; the tables
/// must end exactly as entering every position, one at a time, leaves them (the loop
/// below, written out as the matcher's comment describes it).
@Suite struct HashEnterTests {
    private static let multiplier: UInt32 = 0x1E35_A7BD

    /// Every position from..<to entered in order: the slot's position moves to `older`.
    private func enteredOneByOne(_ data: [UInt8], from: Int, to: Int, bits: Int) -> (latest: [Int], older: [Int]) {
        var latest = [Int](repeating: Int.min, count: 1 << bits), older = latest
        for j in from..<to {
            let word = UInt32(data[j]) | UInt32(data[j + 1]) << 8 | UInt32(data[j + 2]) << 16 // the first 3 bytes
            let slot = Int((word &* Self.multiplier) >> UInt32(32 - bits))
            older[slot] = latest[slot]
            latest[slot] = j
        }
        return (latest, older)
    }

    /// The same positions through `gs_hash_enter`, in calls ending at `cuts` (each with its period).
    private func enteredSkipping(_ data: [UInt8], from: Int, calls: [(to: Int, period: Int)], bits: Int) -> (latest: [Int], older: [Int]) {
        var latest = [Int](repeating: Int.min, count: 1 << bits), older = latest
        let end = calls.last?.to ?? from
        var j = from
        data.withUnsafeBufferPointer { data in
            for call in calls {
                gs_hash_enter(data.baseAddress!, j, call.to, end, &latest, &older, UInt32(32 - bits), call.period, Self.multiplier)
                j = call.to
            }
        }
        return (latest, older)
    }

    @Test func theTablesEndAsEnteringEveryPositionLeavesThem() {
        var rng = SystemRandomNumberGenerator()
        for trial in 0..<400 {
            let count = Int.random(in: 8...3000, using: &rng)
            // Runs of one colour, tiled periods and noise, mixed, with a few odd bytes.
            var data: [UInt8] = []
            while data.count < count + 3 {
                let period = [1, 2, 3, 4, 8, 12, 64][Int.random(in: 0..<7, using: &rng)]
                let cell = (0..<period).map { _ in UInt8.random(in: 0...3, using: &rng) }
                let length = Int.random(in: 1...400, using: &rng)
                for k in 0..<length { data.append(Bool.random(using: &rng) && trial % 5 == 0 ? UInt8.random(in: 0...255, using: &rng) : cell[k % period]) }
            }
            let from = Int.random(in: 0..<(count / 2), using: &rng), bits = 8 + trial % 5
            var calls: [(to: Int, period: Int)] = []
            var at = from
            while at < count {
                at = min(count, at + Int.random(in: 1...700, using: &rng))
                calls.append((at, [1, 3, 4, 8, 64, 200][Int.random(in: 0..<6, using: &rng)]))
            }
            let expected = enteredOneByOne(data, from: from, to: count, bits: bits)
            let got = enteredSkipping(data, from: from, calls: calls, bits: bits)
            #expect(got.latest == expected.latest && got.older == expected.older, "trial \(trial): \(count) bytes from \(from)")
        }
    }

    /// One colour (period 1): entering 100 positions keeps the last two, 98 and 99, in one slot.
    @Test func aRunOfOneColourKeepsItsLastTwo() {
        let data = [UInt8](repeating: 7, count: 103)
        let got = enteredSkipping(data, from: 0, calls: [(100, 1)], bits: 8)
        let word: UInt32 = 0x07_0707
        let slot = Int((word &* Self.multiplier) >> 24)
        #expect(got.latest[slot] == 99 && got.older[slot] == 98)
        #expect(got.latest.filter { $0 != Int.min }.count == 1)
    }
}

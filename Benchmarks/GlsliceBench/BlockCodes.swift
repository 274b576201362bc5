import Foundation
import GlsliceKit

/// `glslice-bench blockcodes [N]`: block codes (`BlockCode`) made from N sets of counts shaped like
/// a block's (a few hundred literals falling off geometrically, lengths and distances sparser), as
/// the CPU's deflate and the GPU thread make one a block; prints microseconds a code.
func benchBlockCodes(_ arguments: [String]) {
    let count = arguments.count > 2 ? Int(arguments[2]) ?? 20_000 : 20_000
    var rng = SeededGenerator(seed: 7)
    let sets: [(literals: [Int], distances: [Int])] = (0..<64).map { k in
        let tokens = k % 2 == 0 ? 400 : 30_000
        var literals = [Int](repeating: 0, count: 286), distances = [Int](repeating: 0, count: 30)
        for _ in 0..<tokens {
            let u = Double.random(in: 0.0001..<1, using: &rng)
            if Int.random(in: 0..<4, using: &rng) == 0 {
                literals[257 + min(28, Int(-log(u) * 4))] += 1
                distances[min(29, Int(-log(Double.random(in: 0.0001..<1, using: &rng)) * 6))] += 1
            } else {
                literals[min(255, Int(-log(u) * 60))] += 1
            }
        }
        return (literals, distances)
    }
    var bits = 0
    let start = ContinuousClock.now
    for i in 0..<count { bits &+= BlockCode(literalCounts: sets[i % 64].literals, distanceCounts: sets[i % 64].distances).bits }
    let elapsed = ContinuousClock.now - start
    let seconds = elapsed.inSeconds
    print(String(format: "blockcodes=%d us/code=%.3f (bits %d)", count, seconds / Double(count) * 1e6, bits))
}

import Foundation
import GlsliceKit

/// `glslice-bench fills [--backend cpu|gpu]`: the time to draw one 2,000 × 2,000
/// px output whose centre cell is one colour, from sources whose centre is
/// 1 to 2,048 px square (8 px patterned caps), with the cell filled (`CellFill`)
/// and sampled, medians of 5 alternated runs. Filled, the time should not grow
/// with the cell's source size; sampled, a linear stretch blends source rows as wide as it.
func benchFills(_ argv: [String]) throws {
    let args = try Arguments([argv[0]] + Array(argv.dropFirst(2)))
    let choice = try BackendChoice(parsing: args.backend)
    let backend = try BackendResolution.resolve(choice, for: .serve, device: nil).backend
    let output = PixelSize(width: 2000, height: 2000)
    print("backend=\(args.backend) output=\(output.width)x\(output.height) stretch linear, ms per render (median of 5 alternated)")
    print("centre px\tfilled\tsampled")
    for n in [1, 16, 256, 2048] {
        let side = n + 16
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let inCap = x < 8 || y < 8 || x >= side - 8 || y >= side - 8
                let rgba: [UInt8] = inCap ? [UInt8(truncatingIfNeeded: x &* 37 &+ y &* 11), UInt8(truncatingIfNeeded: x &* 5 &+ y &* 29), 128, 255]
                                          : [30, 60, 200, 255]
                for c in 0..<4 { pixels[(y * side + x) * 4 + c] = rgba[c] }
            }
        }
        let source = PremultipliedImage(RGBAImage(width: side, height: side, pixels: pixels))
        let lattice = try Lattice(width: side, height: side, insets: PixelInsets(top: 8, left: 8, bottom: 8, right: 8))
        let sampled = try PlanBuilder.plan(lattice: lattice, size: output, k: 1, modes: PerAxis(both: .stretch),
                                           filter: .linear, fillCenter: true)
        var filled = sampled
        filled.markFills(from: source)
        guard filled.cells.contains(where: { $0.fill != nil }) else { throw GlsliceError(.internal, "no filled cell") }
        var times: [[Double]] = [[], []]
        for _ in 0..<5 {
            for (index, plan) in [filled, sampled].enumerated() {
                let start = ContinuousClock.now
                _ = try backend.image(plan, source: source)
                let elapsed = ContinuousClock.now - start
                times[index].append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
            }
        }
        func median(_ values: [Double]) -> String { String(format: "%.1f", values.sorted()[values.count / 2]) }
        print("\(n)x\(n)\t\(median(times[0]))\t\(median(times[1]))")
    }
}

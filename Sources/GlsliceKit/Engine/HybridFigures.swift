import Foundation

/// What each side of a run did (`batch --stats`, text and `--json`): the outputs it
/// drew, their megapixels, its busy and idle seconds, and the backups it ran and won.
/// Without `hybrid` one side does everything.
package struct HybridFigures: Sendable, Equatable, Codable {
    package struct Side: Sendable, Equatable, Codable {
        package var outputs = 0
        package var pixels = 0
        /// Summed over the side's threads (the CPU's workers; the GPU's one thread in calls).
        var busySeconds = 0.0
        var idleSeconds = 0.0
        package var backupsRun = 0
        package var backupsWon = 0
        /// The GPU's calls (0 on the CPU side).
        package var calls = 0

        var megapixels: Double { Double(pixels) / 1e6 }
    }

    package var cpu = Side()
    package var gpu = Side()
    /// Jobs a CPU worker took back from the GPU before it dispatched them.
    var takenBack = 0
    /// Jobs the GPU handed back to the CPU (too large to finish itself, or failed).
    var declined = 0

    package init() {}

    private enum CodingKeys: String, CodingKey { case cpu, gpu, takenBack, declined }

    /// Two lines: `cpu: 812 outputs (3.1 Mpx), busy 1.20 s, idle 0.10 s, backups 2 run, 1 won`, and the GPU's.
    package var lines: [String] {
        func line(_ name: String, _ side: Side, _ extra: String) -> String {
            "\(name): \(side.outputs) output\(side.outputs == 1 ? "" : "s") (\(String(format: "%.1f", side.megapixels)) Mpx), "
                + String(format: "busy %.2f s, idle %.2f s", side.busySeconds, side.idleSeconds)
                + ", backups \(side.backupsRun) run, \(side.backupsWon) won" + extra
        }
        return [line("cpu", cpu, takenBack > 0 ? ", \(takenBack) taken back from the gpu" : ""),
                line("gpu", gpu, ", \(gpu.calls) call\(gpu.calls == 1 ? "" : "s")" + (declined > 0 ? ", \(declined) handed back" : ""))]
    }
}

extension HybridFigures.Side {
    private enum CodingKeys: String, CodingKey { case outputs, megapixels, busySeconds, idleSeconds, backupsRun, backupsWon, calls }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        outputs = try c.decode(Int.self, forKey: .outputs)
        pixels = Int((try c.decode(Double.self, forKey: .megapixels) * 1e6).rounded())
        busySeconds = try c.decode(Double.self, forKey: .busySeconds)
        idleSeconds = try c.decode(Double.self, forKey: .idleSeconds)
        backupsRun = try c.decode(Int.self, forKey: .backupsRun)
        backupsWon = try c.decode(Int.self, forKey: .backupsWon)
        calls = try c.decode(Int.self, forKey: .calls)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(outputs, forKey: .outputs)
        try c.encode((megapixels * 1e4).rounded() / 1e4, forKey: .megapixels)
        try c.encode((busySeconds * 1e4).rounded() / 1e4, forKey: .busySeconds)
        try c.encode((idleSeconds * 1e4).rounded() / 1e4, forKey: .idleSeconds)
        try c.encode(backupsRun, forKey: .backupsRun)
        try c.encode(backupsWon, forKey: .backupsWon)
        try c.encode(calls, forKey: .calls)
    }
}

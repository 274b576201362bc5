import Foundation

/// This machine's share of a manifest: jobs whose index ≡ `index` (mod `count`).
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public static let all = Shard(index: 0, count: 1)

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 0 ≤ K < N.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n > 0, (0..<n).contains(k) else {
            throw GlsliceError(.usage, "shard must be K/N with 0 ≤ K < N, e.g. 0/4, got '\(text)'")
        }
        self.init(index: k, count: n)
    }

    /// From a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`/`JOB_COMPLETIONS`) or a
    /// Slurm array (`SLURM_ARRAY_TASK_ID`/`SLURM_ARRAY_TASK_COUNT`); nil when neither is set.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Shard? {
        for (indexKey, countKey) in [("JOB_COMPLETION_INDEX", "JOB_COMPLETIONS"), ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT")] {
            guard let indexText = environment[indexKey] else { continue }
            guard let countText = environment[countKey] else {
                throw GlsliceError(.usage, "\(indexKey) is set but \(countKey) is not; set both or pass --shard K/N")
            }
            return try Shard(parsing: "\(indexText)/\(countText)")
        }
        return nil
    }

    public func owns(_ jobIndex: Int) -> Bool { jobIndex % count == index }

    public var description: String { "\(index)/\(count)" }
}

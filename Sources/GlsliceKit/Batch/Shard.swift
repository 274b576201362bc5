import Foundation

/// This machine's share of a manifest: jobs whose index ≡ `index` (mod `count`).
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package static let all = Shard(index: 0, count: 1)

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 0 ≤ K < N.
    package init(parsing text: String) throws {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n > 0, (0..<n).contains(k) else {
            throw UsageErrors.notAShard(text)
        }
        self.init(index: k, count: n)
    }

    /// This machine's shard and how it was decided: `--shard K/N`, else the
    /// scheduler's environment, else the whole manifest.
    package static func choose(option: String?, environment: [String: String]) throws
        -> (shard: Shard, reason: String) {
        if let option { return (try Shard(parsing: option), "from --shard \(option)") }
        return try fromEnvironmentWithReason(environment) ?? (.all, "no --shard, no JOB_COMPLETION_INDEX and no SLURM_ARRAY_TASK_ID: every job")
    }

    /// From a Kubernetes Indexed Job or a Slurm array; nil when neither is set.
    package static func fromEnvironment(_ environment: [String: String]) throws -> Shard? {
        try fromEnvironmentWithReason(environment)?.shard
    }

    /// Kubernetes: `JOB_COMPLETION_INDEX` of `JOB_COMPLETIONS` (0-based, as
    /// Kubernetes numbers them). Slurm: array task IDs need not start at 0 and
    /// may step (`--array=1-4`, `--array=0-14:2`), so the shard is
    /// (ID − MIN) / STEP of COUNT, as Slurm defines the array; a list that is
    /// not a regular range (`--array=3,7,9`) cannot be mapped and is refused.
    static func fromEnvironmentWithReason(_ env: [String: String]) throws -> (shard: Shard, reason: String)? {
        if let indexText = env["JOB_COMPLETION_INDEX"] {
            guard let countText = env["JOB_COMPLETIONS"] else {
                throw UsageErrors.halfAnEnvironmentPair(set: "JOB_COMPLETION_INDEX", missing: "JOB_COMPLETIONS", by: .kubernetes)
            }
            guard let index = Int(indexText.trimmingCharacters(in: .whitespaces)) else {
                throw UsageErrors.environmentNotANumber("JOB_COMPLETION_INDEX", indexText)
            }
            guard let count = Int(countText.trimmingCharacters(in: .whitespaces)) else {
                throw UsageErrors.environmentNotANumber("JOB_COMPLETIONS", countText)
            }
            guard count > 0, (0..<count).contains(index) else {
                throw UsageErrors.kubernetesIndexOutOfRange(index: index, count: count)
            }
            let shard = Shard(index: index, count: count)
            return (shard, "from Kubernetes: JOB_COMPLETION_INDEX=\(indexText) of JOB_COMPLETIONS=\(countText)")
        }
        guard env["SLURM_ARRAY_TASK_ID"] != nil else { return nil }
        func number(_ key: String) throws -> Int {
            guard let text = env[key] else {
                throw UsageErrors.halfAnEnvironmentPair(set: "SLURM_ARRAY_TASK_ID", missing: key, by: .slurm)
            }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw UsageErrors.environmentNotANumber(key, text)
            }
            return value
        }
        let id = try number("SLURM_ARRAY_TASK_ID"), count = try number("SLURM_ARRAY_TASK_COUNT")
        let minimum = try number("SLURM_ARRAY_TASK_MIN")
        let step = env["SLURM_ARRAY_TASK_STEP"] == nil ? 1 : try number("SLURM_ARRAY_TASK_STEP")
        guard count > 0, step > 0 else {
            throw UsageErrors.slurmCountAndStepNotPositive(count: count, step: step)
        }
        // Any Int may come from the environment: every step is checked for overflow, never trapped.
        let span = (count - 1).multipliedReportingOverflow(by: step)
        let last = minimum.addingReportingOverflow(span.partialValue)
        let maximum = env["SLURM_ARRAY_TASK_MAX"] == nil ? last.partialValue : try number("SLURM_ARRAY_TASK_MAX")
        let difference = id.subtractingReportingOverflow(minimum)
        let offset = difference.partialValue
        guard !span.overflow, !last.overflow, !difference.overflow, maximum == last.partialValue, offset >= 0,
              offset % step == 0, offset / step < count else {
            throw UsageErrors.irregularSlurmArray(id: id, count: count, minimum: minimum, maximum: maximum, step: step)
        }
        let shard = Shard(index: offset / step, count: count)
        return (shard, "from Slurm: SLURM_ARRAY_TASK_ID=\(id), MIN=\(minimum), STEP=\(step), COUNT=\(count): "
                       + "(\(id) − \(minimum)) / \(step) = \(shard.index)")
    }

    func owns(_ jobIndex: Int) -> Bool { jobIndex % count == index }

    package var description: String { "\(index)/\(count)" }
}

/// "Did you mean": the known name a mistyped word is nearest to, if it is
/// near enough to be the word meant. Two edits reach a swapped pair of
/// letters ("tiel"), but never most of a short word.
enum NearestName {
    static func to(_ word: String, among names: [String]) -> String? {
        let typed = word.lowercased()
        guard let (name, distance) = names.map({ ($0, editDistance(typed, $0.lowercased())) }).min(by: { $0.1 < $1.1 }),
              distance <= max(2, typed.count / 3), distance < typed.count else { return nil }
        return name
    }

    /// Levenshtein distance between two words (insertions, deletions, substitutions).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

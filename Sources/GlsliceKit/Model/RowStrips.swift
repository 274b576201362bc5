extension Range where Bound == Int {
    /// These rows cut into strips of `rows` (the last may be shorter), in order: the one
    /// rule every strip loop cuts by (`Strips`, the GPU's encoding draws and its giants).
    func strips(of rows: Int) -> [Range<Int>] {
        let step = Swift.max(1, rows)
        return Swift.stride(from: lowerBound, to: upperBound, by: step).map { $0..<Swift.min($0 + step, upperBound) }
    }
}

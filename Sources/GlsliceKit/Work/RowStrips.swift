extension Range where Bound == Int {
    /// The one strip loop (issue 53): these rows cut into strips of `rows` (the last may be
    /// shorter), handed to `body` in order with whether each is the last. Every walk over an
    /// output's rows goes through it: the drawers' strips into an encoder (`Strips`), the GPU's
    /// strips to a stream (`GPUDrawLoop`) or into its encoder's buffer, and the GPU encoder's
    /// jobs and giant strips (`GPUEncoder`).
    func eachStrip(of rows: Int, _ body: (_ strip: Range<Int>, _ last: Bool) throws -> Void) rethrows {
        let step = Swift.max(1, rows)
        var start = lowerBound
        while start < upperBound {
            let strip = start..<Swift.min(start + step, upperBound)
            try body(strip, strip.upperBound == upperBound)
            start = strip.upperBound
        }
    }
}

/// A job's taps along both whole axes, worked out once as the job is prepared
/// (`PreparedJob.prepareAhead()`), for the map and both drawers to share: the drawers had
/// worked out the same taps again (the CPU drawer's were about a tenth of drawing the bench
/// manifest; the GPU drawer's were the GL thread's). An axis longer than `longest` gets none (each then works
/// out the windows it needs), so a job waiting in a queue holds at most 17 bytes × 2 × 65,536.
package struct PlanTaps: Sendable {
    /// Columns `0..<width`, or nil when wider than `longest`.
    let columns: AxisTaps?
    /// Rows `0..<height`, or nil when taller than `longest`.
    let rows: AxisTaps?

    static let longest = 1 << 16

    init(_ plan: Plan) {
        let size = plan.size
        columns = size.width <= Self.longest ? AxisTaps(spans: plan.xSpans, range: 0..<size.width, filter: plan.filter) : nil
        rows = size.height <= Self.longest ? AxisTaps(spans: plan.ySpans, range: 0..<size.height, filter: plan.filter) : nil
    }
}

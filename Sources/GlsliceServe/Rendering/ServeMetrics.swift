import Prometheus
import GlsliceKit

/// What `/metrics` reports (Prometheus text, via swift-prometheus).
public final class ServeMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    /// Renders actually drawn: coalesced and cached answers do not count.
    let renders: Counter
    let renderFailures: Counter
    let renderSeconds: DurationHistogram
    let cacheHits: Counter
    let cacheMisses: Counter
    /// Requests that joined a render already in flight.
    let coalesced: Counter
    let queueDepth: Gauge
    let rendersRunning: Gauge
    let cacheBytes: Gauge
    let gpuBytes: Gauge
    /// Render answers refused because `--answer-mb` of answers were being written.
    let answersRefused: Counter
    /// Read at each scrape: log lines dropped because stderr was not being read.
    let droppedLogLines = Locked<(@Sendable () -> Int)?>(nil)
    /// Busy time per engine stage, as `batch --stats` reports it.
    let stageTimes = StageTimes()

    public init() {
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "glslice", metricName: metric, unitName: unit, helpText: help)
        }
        renders = registry.makeCounter(descriptor: name("renders", "total", "Images rendered (coalesced and cached answers excluded)."))
        renderFailures = registry.makeCounter(descriptor: name("render_failures", "total", "Renders refused (bad request or source), failed, or timed out."))
        renderSeconds = registry.makeDurationHistogram(
            descriptor: name("render", "seconds", "Time to draw and encode one image."),
            buckets: [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                      .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                      .seconds(2.5), .seconds(5), .seconds(10)])
        cacheHits = registry.makeCounter(descriptor: name("cache_hits", "total", "Render requests answered from the response cache."))
        cacheMisses = registry.makeCounter(descriptor: name("cache_misses", "total", "Render requests the response cache could not answer."))
        coalesced = registry.makeCounter(descriptor: name("coalesced", "total", "Render requests that waited for an identical render in flight."))
        queueDepth = registry.makeGauge(descriptor: name("queue", "depth", "Renders waiting for a render thread."))
        rendersRunning = registry.makeGauge(descriptor: name("renders", "running", "Renders being drawn now."))
        cacheBytes = registry.makeGauge(descriptor: name("cache", "bytes", "Bytes of PNG and WebP answers held by the response cache."))
        gpuBytes = registry.makeGauge(descriptor: name("gpu", "bytes", "Bytes of GPU memory held: framebuffer, cell textures, taps, read-back buffers and the GPU encoder's buffers (--gpu-mb bounds them)."))
        answersRefused = registry.makeCounter(descriptor: name("answers_refused", "total", "Render answers refused (503) because --answer-mb of answers were waiting to be read."))
    }

    /// Counts one answered request by its status code.
    func countRequest(status: Int) {
        let descriptor = MetricNameDescriptor(namespace: "glslice", metricName: "http_requests", unitName: "total",
                                              helpText: "HTTP requests answered, by status code.")
        registry.makeCounter(descriptor: descriptor, labels: [("status", String(status))]).increment()
    }

    /// The Prometheus text exposition.
    public func text() -> String {
        var text = registry.emitToString()
        text += "# HELP glslice_stage_seconds_total Busy time per render stage (prepare, draw, read-back, encode, write), summed over threads.\n"
        text += "# TYPE glslice_stage_seconds_total counter\n"
        for stage in Stage.allCases {
            text += "glslice_stage_seconds_total{stage=\"\(stage.rawValue)\"} \(stageTimes.seconds(stage))\n"
        }
        if let dropped = droppedLogLines.withLock({ $0 }) {
            text += "# HELP glslice_log_lines_dropped_total Log lines dropped because stderr was not being read.\n"
            text += "# TYPE glslice_log_lines_dropped_total counter\nglslice_log_lines_dropped_total \(dropped())\n"
        }
        return text
    }
}

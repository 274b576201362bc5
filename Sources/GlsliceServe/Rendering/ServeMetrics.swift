import Prometheus

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

    public init() {
        renders = registry.makeCounter(name: "glslice_renders_total", help: "Images rendered (coalesced and cached answers excluded).")
        renderFailures = registry.makeCounter(name: "glslice_render_failures_total", help: "Renders that failed or timed out.")
        renderSeconds = registry.makeDurationHistogram(
            name: "glslice_render_seconds",
            buckets: [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                      .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                      .seconds(2.5), .seconds(5), .seconds(10)],
            help: "Time to draw and encode one image.")
        cacheHits = registry.makeCounter(name: "glslice_cache_hits_total", help: "Render requests answered from the response cache.")
        cacheMisses = registry.makeCounter(name: "glslice_cache_misses_total", help: "Render requests the response cache could not answer.")
        coalesced = registry.makeCounter(name: "glslice_coalesced_total", help: "Render requests that waited for an identical render in flight.")
        queueDepth = registry.makeGauge(name: "glslice_queue_depth", help: "Renders waiting for a render thread.")
        rendersRunning = registry.makeGauge(name: "glslice_renders_running", help: "Renders being drawn now.")
        cacheBytes = registry.makeGauge(name: "glslice_cache_bytes", help: "Bytes of PNG held by the response cache.")
    }

    /// Counts one answered request by its status code.
    func countRequest(status: Int) {
        registry.makeCounter(name: "glslice_http_requests_total", labels: [("status", String(status))],
                             help: "HTTP requests answered, by status code.").increment()
    }

    /// The Prometheus text exposition.
    public func text() -> String { registry.emitToString() }
}

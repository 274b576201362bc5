/// How many jobs, and how many of their pixels, each side drew (`batch --stats`):
/// with `hybrid` both sides draw; otherwise one.
package struct DrawnBy: Sendable, Equatable, Codable {
    var cpuJobs = 0
    var cpuPixels = 0
    var gpuJobs = 0
    var gpuPixels = 0

    package init() {}

    mutating func add(_ drawing: Drawing, pixels: Int) {
        if case .here = drawing {
            cpuJobs += 1
            cpuPixels += pixels
        } else {
            gpuJobs += 1
            gpuPixels += pixels
        }
    }

    /// `drawn: cpu 812 jobs (3.1 Mpx), gpu 1,588 jobs (6.4 Mpx)`.
    package var line: String {
        func side(_ name: String, _ jobs: Int, _ pixels: Int) -> String {
            "\(name) \(jobs) job\(jobs == 1 ? "" : "s") (\(String(format: "%.1f", Double(pixels) / 1e6)) Mpx)"
        }
        return "drawn: " + side("cpu", cpuJobs, cpuPixels) + ", " + side("gpu", gpuJobs, gpuPixels)
    }
}

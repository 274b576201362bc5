import Foundation
import Synchronization

/// done/total, rate and ETA on one terminal line that fits the terminal's
/// width (read at each repaint, so a resize is followed) and is redrawn in
/// place at most ten times a second.
final class ProgressBar: Sendable {
    /// nil when the manifest cannot be read twice to count it.
    let total: Int?
    let start = Date()
    /// When the bar was last drawn; the mutex also keeps two redraws from interleaving.
    private let lastDraw = Mutex(Date.distantPast)

    init(total: Int?) { self.total = total }

    func update(done: Int) {
        lastDraw.withLock { lastDraw in
            let now = Date()
            guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            standardError("\r" + Self.line(done: done, total: total, elapsed: now.timeIntervalSince(start),
                                           columns: terminalColumns()) + "\u{1B}[K")
        }
    }

    /// The line for a terminal `columns` wide: always shorter than that, so it
    /// never wraps (a wrapped line scrolls on every repaint). The bar takes the
    /// room the numbers leave, and is dropped below 5 columns of it.
    static func line(done: Int, total: Int?, elapsed: TimeInterval, columns: Int) -> String {
        let rate = Double(done) / max(elapsed, 1e-6)
        let room = max(columns - 1, 1)
        guard let total else { return String(String(format: "%d done %.0f/s", done, rate).prefix(room)) }
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let eta = rate > 0 ? Double(max(0, total - done)) / rate : 0
        let numbers = String(format: " %d/%d %3.0f%% %.0f/s ETA %@", done, total, fraction * 100, rate, duration(eta))
        let width = min(40, room - numbers.count - 2)
        guard width >= 5 else { return String(numbers.dropFirst().prefix(room)) }
        let filled = Int(fraction * Double(width))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]" + numbers
    }

    func clear() {
        lastDraw.withLock { _ in standardError("\r\u{1B}[K") }
    }

    private static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%dh%02dm", s / 3600, s / 60 % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

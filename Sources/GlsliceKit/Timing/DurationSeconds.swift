extension Duration {
    /// The duration in seconds, as a `Double` (figures and rates; the one conversion).
    package var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

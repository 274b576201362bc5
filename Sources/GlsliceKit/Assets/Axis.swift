/// Which way a source band runs: an x band is a run of columns (a scalable x
/// segment over the whole height), a y band a run of rows.
package enum Axis: String, Sendable, Codable {
    case x, y
}

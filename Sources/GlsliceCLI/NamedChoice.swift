import ArgumentParser
import GlsliceKit

/// An option whose value is one of a few names, read whatever its case
/// (`--mode Stretch` is `stretch`), as a manifest and a URL read them.
protocol NamedChoice: ExpressibleByArgument, RawRepresentable<String>, CaseIterable {}

extension NamedChoice {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }

    static var names: [String] { allCases.map(\.rawValue) }
}

extension ResizeMode: NamedChoice {}
extension Filter: NamedChoice {}
extension BackendChoice: NamedChoice {}
extension Compression: NamedChoice {}
extension SmallTarget: NamedChoice {}
extension ImageFormat: NamedChoice {}

/// Each option that takes a `NamedChoice`, and its names (for "did you mean").
let namedChoices: [String: [String]] = [
    "--mode": ResizeMode.names, "--mode-x": ResizeMode.names, "--mode-y": ResizeMode.names, "--filter": Filter.names,
    "--backend": BackendChoice.names, "--compression": Compression.names, "--small": SmallTarget.names,
    "--format": ImageFormat.names,
]

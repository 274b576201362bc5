import Foundation

/// One manifest line made ready: paths resolved, options validated.
package struct ManifestJob: Sendable {
    /// 1-based line number in the manifest.
    package var line: Int
    package var input: String
    package var output: String
    package var request: RenderRequest
    /// `output` relative to the output folder, when outputs must stay inside
    /// it: the kernel then resolves it beneath the folder's descriptor.
    var outputInside: String?

    /// Where the PNG is written, given the output folder open as `scope`.
    func target(outputScope scope: FileScope?) throws -> OutputTarget {
        guard let outputInside else { return .file(output) }
        guard let scope else { throw FileErrors.cannotOpenOutputFolder(output) }
        return .contained(outputInside, beneath: scope)
    }
}

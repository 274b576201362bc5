import Foundation
import Testing
@testable import GlsliceKit

/// GL tests run wherever a context comes up (llvmpipe in CI). They skip only
/// when none does and `GLSLICE_REQUIRE_GPU` is unset; with it set they run and
/// fail, so CI can never pass by skipping them.
enum GPUTestSupport {
    static let required = ProcessInfo.processInfo.environment["GLSLICE_REQUIRE_GPU"] == "1"

    /// Whether a context came up when first asked (probed once, then released).
    static let available: Bool = (try? GPUContext.make()) != nil

    static var enabled: Bool { available || required }

    /// A fresh GPU backend for the calling thread (contexts are per thread).
    static func backend() throws -> Backend {
        do {
            return try Backend.make(.gpu)
        } catch {
            Issue.record("GLSLICE_REQUIRE_GPU is set but no GPU context: \(error)")
            throw error
        }
    }
}

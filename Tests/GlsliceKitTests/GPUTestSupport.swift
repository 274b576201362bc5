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

    /// Whether this machine can only have a software GL (Mesa's llvmpipe): no
    /// DRM render node and no NVIDIA device. Told from /dev, not from what the
    /// code under test decides, so a test of that decision has its own answer.
    static let softwareOnly: Bool = MachineGL.softwareOnly

    /// A fresh GPU backend for the calling thread (contexts are per thread).
    static func backend(gpuEncoding: Bool? = nil) throws -> Backend {
        do {
            return .gpu(try Backend.openSession(device: nil, gpuEncoding: gpuEncoding))
        } catch {
            Issue.record("GLSLICE_REQUIRE_GPU is set but no GPU context: \(error)")
            throw error
        }
    }
}

/// What GL a machine can have, read from its device nodes.
enum MachineGL {
    static var softwareOnly: Bool {
        let dri = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        let nvidia = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains { $0.hasPrefix("nvidia") && $0.dropFirst(6).allSatisfy(\.isNumber) && $0.count > 6 }
        return !dri.contains { $0.hasPrefix("renderD") } && !nvidia
    }
}

import Foundation
import Testing

/// `glslice doctor`: `GLSLICE_GPU_ENCODE` is read one way, by the sessions and by doctor
/// (docs/HARDENING.md, round five, finding 4).
@Suite struct DoctorCommandTests {
    /// doctor's `--json` with `GLSLICE_GPU_ENCODE` set to `value` (nil: unset): its
    /// `gpu-encoding`, and stderr; nil where no GL context comes up and none is required.
    static func doctor(_ value: String?) throws -> (encoding: String, stderr: String)? {
        let result = try glslice(["doctor", "--json"], environment: value.map { ["GLSLICE_GPU_ENCODE": $0] } ?? [:])
        if result.status == 69, ProcessInfo.processInfo.environment["GLSLICE_REQUIRE_GPU"] != "1" { return nil }
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let context = try #require(json["context"] as? [String: Any])
        return (try #require(context["gpu-encoding"] as? String), result.stderr)
    }

    /// Finding 4: with `GLSLICE_GPU_ENCODE=1` on llvmpipe doctor said "off" while a
    /// batch encoded on the GPU, and any value but `1` read as `0`. Now doctor gives
    /// the sessions' answer, the words users write for on and off are read as
    /// such, and anything else is named in one line and ignored (the default stands).
    @Test func doctorReportsTheOneDecisionForGPUEncoding() throws {
        guard let unset = try Self.doctor(nil) else { return }
        #expect(!unset.encoding.hasPrefix("unavailable"), "\(unset.encoding)")
        // The default: off on a software rasteriser only (read from /dev, not from the code).
        let software = !(((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).contains { $0.hasPrefix("renderD") })
        if software { #expect(unset.encoding == "off") }
        for value in ["1", "true", "yes", "on", "ON", "True"] {
            let found = try #require(try Self.doctor(value))
            #expect(found.encoding == "on", "GLSLICE_GPU_ENCODE=\(value): \(found.encoding)")
            #expect(!found.stderr.contains("warning"), "\(found.stderr)")
        }
        for value in ["0", "false", "no", "off", "OFF"] {
            let found = try #require(try Self.doctor(value))
            #expect(found.encoding == "off", "GLSLICE_GPU_ENCODE=\(value): \(found.encoding)")
        }
        for value in ["maybe", "2", ""] {
            let found = try #require(try Self.doctor(value))
            #expect(found.encoding == unset.encoding, "GLSLICE_GPU_ENCODE=\(value) is ignored: \(found.encoding)")
            let lines = found.stderr.split(separator: "\n").filter { $0.contains("GLSLICE_GPU_ENCODE=\(value) ") }
            #expect(lines.count == 1 && lines[0].contains("0/1, true/false, yes/no, on/off"), "\(found.stderr)")
        }
    }

}

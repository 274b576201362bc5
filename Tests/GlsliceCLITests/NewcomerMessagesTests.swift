import Foundation
import Testing

/// Issue 50 (what a newcomer meets, round three): each message names the actual
/// cause, with its exit code. Expected words are the catalogue's, written here by hand.
@Suite struct NewcomerMessagesTests {
    /// A bad `--size` is the flag's fault, not the input's: the file is fine and unnamed.
    @Test func aSizeErrorNamesTheOptionNotTheFile() throws {
        let input = fixtures.appendingPathComponent("button@2x.png").path
        let result = try glslice(["render", input, "--size", "-120x44", "-o", "/dev/null"])
        #expect(result.status == 64)
        #expect(result.stderr == "glslice: --size must be positive, got '-120x44'\n", "\(result.stderr)")
    }

    /// A manifest line that is not JSON gives its line and the column where it goes wrong
    /// (1-based): `{"input": "x", oops}` breaks at the `o` of `oops`, column 16; a line
    /// that stops early, one past its end.
    @Test func aJSONErrorGivesItsLineAndColumn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        try [#"{"input": "x", "output": "a.png", "pixels": "9x9"}"#, #"{"input": "x", oops}"#, #"{"input": "x""#]
            .joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let result = try glslice(["batch", manifest.path, "--backend", "cpu", "--out-dir", folder.appendingPathComponent("out").path])
        #expect(result.status == 1)
        #expect(result.stderrLines.contains { $0 == "glslice: \(manifest.path):2: not valid JSON at column 16: expected a key in double quotes, found 'oops}'" },
                "\(result.stderr)")
        #expect(result.stderrLines.contains { $0 == "glslice: \(manifest.path):3: not valid JSON at column 14: expected ',' or '}', found the line's end" },
                "\(result.stderr)")
    }

    /// A port another process holds: exit 69, and the way out is `--bind`.
    @Test func aTakenPortNamesBind() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 1) == 0
                && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try glsliceWithin(60, ["serve", "--root", fixtures.path, "--bind", "127.0.0.1:\(port)", "--backend", "cpu"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("cannot serve on 127.0.0.1:\(port): another process is listening there")
                && result.stderr.contains("--bind HOST:PORT"), "\(result.stderr)")
    }

    /// doctor's answer comes first (it was on line 29 of 31): which backend `auto` takes, and
    /// why, then batch's (hybrid on a hardware GPU, else the CPU), then render's, then the
    /// details; without a driver too.
    @Test func doctorSaysItsAnswerFirst() throws {
        for environment in [[:], ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"]] {
            let result = try glslice(["doctor"], environment: environment)
            let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
            #expect(lines.first?.hasPrefix("--backend auto would take: ") == true, "\(lines.prefix(3))")
            #expect(lines.prefix(4).contains { $0.hasPrefix("'glslice batch --backend auto' takes: ") }, "\(lines.prefix(4))")
            #expect(lines.contains("Details:"))
        }
    }

    /// Kubernetes sets only the index: the message says so, and what the Job must add.
    @Test func theKubernetesMessageSaysWhatTheJobMustAdd() throws {
        let manifest = fixtures.appendingPathComponent("jobs.jsonl").path
        let result = try glslice(["batch", manifest, "--print-shard"], environment: ["JOB_COMPLETION_INDEX": "2"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("JOB_COMPLETION_INDEX is set (Kubernetes sets it for an Indexed Job) but JOB_COMPLETIONS is not")
                && result.stderr.contains("add JOB_COMPLETIONS to the Job's env with its spec.completions, or pass --shard K/N"),
                "\(result.stderr)")
    }
}

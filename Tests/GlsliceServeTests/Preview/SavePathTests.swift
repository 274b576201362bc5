import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import NIOCore
import Testing

/// Where the preview's writers may write (docs/HARDENING.md, round three): a write the request cannot
/// have is the request's fault (4xx), never "a bug".
@Suite struct SavePathTests {
    static let save = "/preview/save-nine-patch"
    static let saveBody = #"{"source": "panel.png", "output": "bubble.9.png", "x": [[6, 11]], "y": [[7, 9]]}"#

    // 8. A write the request cannot have is a 4xx, not "a bug".
    @Test(arguments: ["nope/x.9.png", "panel.png/x.9.png", "out/x.9.png"])
    func aWriteToNowhereIsTheRequestsFault(output: String) async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let body = #"{"source": "panel.png", "output": "\#(output)", "x": [], "y": []}"#
            let response = try await postJSON(port, Self.save, body)
            #expect((400..<500).contains(Int(response.status.code)), "\(output): \(response.text)")
            #expect(try await metric(port, "glslice_http_requests_total{status=\"500\"}") ?? 0 == 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: world.outside.path) == ["secret.png"])
    }

    @Test func aNinePatchNamedLikeAFolderIsTheRequestsFault() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try FileManager.default.createDirectory(at: world.root.appendingPathComponent("dir.9.png"), withIntermediateDirectories: true)
        try await withServer(world) { port, _ in
            let response = try await postJSON(port, Self.save, #"{"source": "panel.png", "output": "dir.9.png", "x": [], "y": []}"#)
            #expect(response.status.code == 409, "\(response.text)")
        }
    }

    // 9. The answer names the file written.
    @Test func writingThroughContentsJsonAnswersItsPath() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let response = try await postJSON(port, "/preview/write-image-set",
                                              #"{"source": "ui/button.imageset/Contents.json", "insets": "10,8,10,8"}"#)
            #expect(response.status == .ok, "\(response.text)")
            #expect(response.text.contains(#""saved":"ui/button.imageset/Contents.json""#), "\(response.text)")
        }
    }
}

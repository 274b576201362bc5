import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import NIOCore
import Testing

/// The page's "Save as .9.png": new stretch runs written as markers, under the root only.
@Suite struct SaveNinePatchTests {
    func post(_ port: Int, _ json: String) async throws -> TestClient.Response {
        try await postJSON(port, "/preview/save-nine-patch", json)
    }

    @Test func savedMarkersGiveTheEditedLattice() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            // bubble.9.png's artwork is 26x22 px; one run across (5-20) and two down (3-5, 12-14).
            let saved = try await post(port, #"{"source": "bubble.9.png", "output": "ui/edited.9.png", "x": [[5, 20]], "y": [[3, 5], [12, 14]]}"#)
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(saved.text.contains(#""saved":"ui/edited.9.png""#), "\(saved.text)")
            // Read back by the nine-patch reader (aapt2's rules), not by the code that wrote it.
            let inspected = try runGlslice(["inspect", world.root.appendingPathComponent("ui/edited.9.png").path])
            let text = String(decoding: inspected.stdout, as: UTF8.self)
            #expect(text.contains("lattice x: 0-5 fixed, 5-20 scalable, 20-26 fixed"), "\(text)")
            #expect(text.contains("lattice y: 0-3 fixed, 3-5 scalable, 5-12 fixed, 12-14 scalable, 14-22 fixed"), "\(text)")
            // The bubble's own padding (top 4, left 4, bottom 8, right 4) is kept.
            #expect(text.contains("padding: top 4, left 4, bottom 8, right 4 px"), "\(text)")
            // And it renders what the bubble's artwork alone (Fixtures/bubble.png) renders with
            // those runs given by --lattice: the saved markers say what the page sent.
            let page = try await get(port, "/render/ui/edited.9.png?pixels=90x70&format=png")
            #expect(page.status == .ok)
            let expected = world.folder.appendingPathComponent("lattice.png").path
            let cli = try runGlslice(["render", fixtures.appendingPathComponent("bubble.png").path, "--lattice", "x=5-20;y=3-5,12-14",
                                      "--mode", "stretch", "--pixels", "90x70", "--backend", "cpu", "-o", expected])
            #expect(cli.status == 0, "\(cli.stderr)")
            let served = try PNGDecoder.decode(data: Data(page.bytes), maxPixels: 1 << 20)
            #expect(served == (try PNGDecoder.decode(path: expected, maxPixels: 1 << 20)))
        }
    }

    /// A plain PNG has no padding markers to keep: its padding follows the new runs, as Android reads it.
    @Test func aPlainSourcesPaddingFollowsItsRuns() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let saved = try await post(port, #"{"source": "panel.png", "output": "panel.9.png", "x": [[6, 11]], "y": [[7, 9]]}"#)
            #expect(saved.status == .ok, "\(saved.text)")
        }
        let inspected = try runGlslice(["inspect", world.root.appendingPathComponent("panel.9.png").path])
        let text = String(decoding: inspected.stdout, as: UTF8.self)
        // panel.png is 17x17: runs 6-11 and 7-9 leave 6 and 6 across, 7 and 8 down.
        #expect(text.contains("lattice x: 0-6 fixed, 6-11 scalable, 11-17 fixed"), "\(text)")
        #expect(text.contains("padding: top 7, left 6, bottom 8, right 6 px"), "\(text)")
    }

    @Test(arguments: [
        (#"{"source": "bubble.9.png", "output": "../outside/x.9.png", "x": [], "y": []}"#, 400),
        (#"{"source": "bubble.9.png", "output": "out/x.9.png", "x": [], "y": []}"#, 409),  // a folder that links out
        (#"{"source": "bubble.9.png", "output": "x.png", "x": [], "y": []}"#, 400),
        (#"{"source": "bubble.9.png", "output": "x.9.png", "x": [[5, 40]], "y": []}"#, 400),
        (#"{"source": "bubble.9.png", "output": "x.9.png", "x": [[5, 9], [8, 12]], "y": []}"#, 400),
        (#"{"source": "../outside/secret.png", "output": "x.9.png", "x": [], "y": []}"#, 404),
        (#"not json"#, 400),
    ])
    func refusedWithoutWriting(body: String, status: Int) async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let response = try await post(port, body)
            #expect(response.status.code == status, "\(body): \(response.text)")
            #expect(response.errorMessage != nil)
        }
        let outside = try FileManager.default.contentsOfDirectory(atPath: world.outside.path)
        #expect(outside == ["secret.png"])
        #expect(!FileManager.default.fileExists(atPath: world.root.appendingPathComponent("x.9.png").path))
    }

    /// With a key the page is off, and so is writing: the route does not exist.
    @Test func noWritingWithAKey() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world, signer: try URLSigner(key: Data("0123456789abcdef0123456789abcdef".utf8))) { port, _ in
            let response = try await post(port, #"{"source": "bubble.9.png", "output": "x.9.png", "x": [], "y": []}"#)
            #expect(response.status == .notFound || response.status == .methodNotAllowed || response.status == .forbidden, "\(response.status)")
        }
        #expect(!FileManager.default.fileExists(atPath: world.root.appendingPathComponent("x.9.png").path))
    }
}

/// The page's "Write to image set": caps in points into every image's cap-insets.
@Suite struct WriteImageSetTests {
    func post(_ port: Int, _ json: String) async throws -> TestClient.Response {
        try await postJSON(port, "/preview/write-image-set", json)
    }

    @Test func capsInPointsBecomeEachImagesPixels() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let set = world.root.appendingPathComponent("ui/button.imageset")
        try await withServer(world) { port, _ in
            let before = try await get(port, "/render/ui/button.imageset?size=80x30&scale=2&format=png")
            let response = try await post(port, #"{"source": "ui/button.imageset", "insets": "10,8,10,8", "center": "tile"}"#)
            #expect(response.status == .ok, "\(response.text)")
            // Read back by the image-set reader: 10 and 8 pt are 10/8 px at @1x, 20/16 at @2x, 30/24 at @3x.
            let read = try ImageSet(path: set.path)
            var checked = 0
            for variant in read.variants {
                let s = Int(variant.scale)
                #expect(variant.resizing?.capInsets == PixelInsets(top: 10 * s, left: 8 * s, bottom: 10 * s, right: 8 * s), "\(variant.file)")
                #expect(variant.resizing?.centerMode == .tile)
                checked += 1
            }
            #expect(checked == 3)
            // The set renders with its new caps: another job, another answer.
            let after = try await get(port, "/render/ui/button.imageset?size=80x30&scale=2&format=png")
            #expect(after.status == .ok && after.headers[.eTag] != before.headers[.eTag])
        }
    }

    @Test(arguments: [
        (#"{"source": "ui/button.imageset", "insets": "40,40,40,40"}"#, 400),   // no centre left
        (#"{"source": "ui/button.imageset", "insets": "10.5,8,10,8"}"#, 400),  // 10.5 px at @1x
        (#"{"source": "ui/button.imageset", "insets": "1,1,1,1", "center": "round"}"#, 400),
        (#"{"source": "panel.png", "insets": "1,1,1,1"}"#, 400),
        (#"{"source": "../outside/x.imageset", "insets": "1"}"#, 404),
    ])
    func refused(body: String, status: Int) async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let contents = world.root.appendingPathComponent("ui/button.imageset/Contents.json")
        let original = try Data(contentsOf: contents)
        try await withServer(world) { port, _ in
            let response = try await post(port, body)
            #expect(response.status.code == status, "\(body): \(response.text)")
        }
        #expect(try Data(contentsOf: contents) == original)
    }
}

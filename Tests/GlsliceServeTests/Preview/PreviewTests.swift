import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import Testing

/// What the preview page reads: the page itself, the source list, each source's facts.
@Suite struct PreviewTests {
    @Test func thePageLoadsNothingFromElsewhere() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let page = try await get(port, "/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'") == true)
            // No outside assets: no absolute URLs, no protocol-relative ones, no external script or style.
            #expect(!page.text.contains("http://") && !page.text.contains("https://"))
            #expect(page.text.firstMatch(of: /(src|href)="\/\//) == nil)
            #expect(page.text.contains("<script>") && page.text.contains("/render/"))
            // Its command lines read sources under the root, which it names (issue 40), and write into
            // out/ where they run; saves go into the root, as it says (issue 50).
            let root = try #require(realpath(world.root.path, nil).map { path in defer { free(path) }; return String(cString: path) })
            #expect(page.text.contains("Reads the source from the served folder (<code id=\"root\">\(root)</code>) and writes into <code>out/</code>"),
                    "\(root)")
            #expect(page.text.contains(#""-o", shellQuote("out/" + outputName())"#))
            #expect(page.text.contains("Saves into the served folder, beside the source"))
            #expect(!page.text.contains("__GLSLICE_ROOT__"))
        }
    }

    @Test func sourcesAndTheirFacts() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let list = try #require(try JSONSerialization.jsonObject(with: Data(await get(port, "/preview/sources").bytes)) as? [[String: String]])
            let kinds = Dictionary(uniqueKeysWithValues: list.map { ($0["path"] ?? "", $0["kind"] ?? "") })
            // escape.png and out/ lead out of the root: not listed.
            #expect(kinds == ["bubble.9.png": "nine-patch", "button@2x.png": "png", "corrupt.png": "png",
                              "panel.png": "png", "ui/button.imageset": "imageset"])
            // Issue 70: a file a render would refuse says so and why, and the page keeps it out of its menu.
            let broken = Dictionary(uniqueKeysWithValues: list.compactMap { entry in entry["broken"].map { (entry["path"] ?? "", $0) } })
            #expect(Array(broken.keys) == ["corrupt.png"], "\(broken)")
            #expect(broken["corrupt.png"]?.contains("corrupt.png") == true, "\(broken)")
            let page = try await get(port, "/")
            #expect(page.text.contains("(inTestFolder(entry.path) || entry.broken) && entry.path !== selected) continue;"))

            // bubble.9.png, as Scripts/make-fixtures.py draws it: stretch x 8-10 and 16-18, y 8-10; padding x 4-22, y 4-14 of 26x22.
            let bubble = try #require(try JSONSerialization.jsonObject(with: Data(await get(port, "/preview/info/bubble.9.png").bytes)) as? [String: Any])
            #expect(bubble["width"] as? Int == 26 && bubble["height"] as? Int == 22)
            #expect(bubble["latticeOwner"] as? String == "markers")
            #expect(bubble["latticeX"] as? [[Int]] == [[0, 8, 0], [8, 10, 1], [10, 16, 0], [16, 18, 1], [18, 26, 0]])
            #expect(bubble["latticeY"] as? [[Int]] == [[0, 8, 0], [8, 10, 1], [10, 22, 0]])
            #expect(bubble["padding"] as? [String: Int] == ["top": 4, "left": 4, "bottom": 8, "right": 4])

            // The image set at @3x: the 3x variant, 25x29 pt with caps 14,12,14,12 pt and a 1-pt centre, in its pixels.
            let set = try #require(try JSONSerialization.jsonObject(with: Data(await get(port, "/preview/info/ui/button.imageset?scale=3").bytes)) as? [String: Any])
            #expect(set["kind"] as? String == "imageset" && set["scale"] as? Double == 3)
            #expect(set["width"] as? Int == 75 && set["height"] as? Int == 87)
            // The PNG read, which the page's CSS names: the @3x variant, under the root.
            #expect(set["image"] as? String == "ui/button.imageset/button@3x.png", "\(set["image"] ?? "none")")
            #expect(set["latticeX"] as? [[Int]] == [[0, 36, 0], [36, 39, 1], [39, 75, 0]])
            #expect(set["latticeY"] as? [[Int]] == [[0, 42, 0], [42, 45, 1], [45, 87, 0]])

            // A plain PNG: its scale from the name, no lattice of its own.
            let button = try #require(try JSONSerialization.jsonObject(with: Data(await get(port, "/preview/info/button@2x.png").bytes)) as? [String: Any])
            #expect(button["scale"] as? Double == 2 && button["latticeOwner"] == nil)

            #expect(try await get(port, "/preview/info/escape.png").status == .notFound)
            #expect(try await get(port, "/preview/info/%2e%2e/outside/secret.png").status == .notFound)
        }
    }
}

import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Testing

/// The request memo keeps, per URL, stamps of the files that decided the
/// render. Issue 19: it stamped every file in an image set's folder, so with
/// 3,000 other files there each URL cost about 850 KiB.
@Suite struct MemoTests {
    @Test func anImageSetIsStampedByTheFilesItNames() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let set = world.root.appendingPathComponent("ui/button.imageset")
        for index in 0..<3000 {
            try Data([UInt8(index & 0xFF)]).write(to: set.appendingPathComponent("other-\(index).txt"))
        }
        let scope = try FileScope.beneath(world.root.path)
        let contents = FileStamp.contents(of: "ui/button.imageset", in: scope)
        #expect(contents?.path == "ui/button.imageset/Contents.json" && contents?.identity.isEmpty == false)
        #expect(FileStamp.contents(of: "ui/button@2x.png", in: scope) == nil)

        try await withServer(world) { port, server in
            let urls = (0..<60).map { "/render/ui/button.imageset?size=\(40 + $0)x30&scale=\($0 % 3 + 1)" }
            for url in urls { #expect(try await get(port, url).status == .ok, "\(url)") }
            let memo = server.service.memo.size
            #expect(memo.keys == urls.count)
            #expect(memo.stamps == 2 * urls.count) // Contents.json and one variant each, not 3,004
            // A stamp still notices an edit to a file the set names: the same URL now answers the new pixels.
            let before = try await get(port, urls[2]).bytes
            let variant = set.appendingPathComponent("button@3x.png")
            var image = try PNGDecoder.decode(path: variant.path, maxPixels: 1 << 20)
            for index in stride(from: 0, to: image.rgba.pixels.count, by: 4) { image.rgba.pixels[index] = 255 - image.rgba.pixels[index] }
            try FileManager.default.removeItem(at: variant)
            try PNGEncoder.write(image.premultiplied(), to: .file(variant.path))
            let after = try await get(port, urls[2])
            #expect(after.status == .ok)
            #expect(after.bytes != before)
        }
    }

    // 6. The memo was bounded at 100,000 keys: long URLs (the longest allowed
    // lattice) held 320 MiB. Now it is bounded in bytes, and a reset gives its storage back.
    @Test func theRequestMemoIsBoundedInBytes() throws {
        let scope = try FileScope.beneath(FileManager.default.temporaryDirectory.path)
        let memo = RequestMemo(scope: scope)
        let entry = RequestMemo.Entry(digest: String(repeating: "d", count: 64), format: .png,
                                      stamps: [FileStamp(path: "panel.png", in: scope)])
        let long = String(repeating: "x=1-2,", count: 550) // about 3.3 KB, as the longest lattice URL
        var largest = 0
        for index in 0..<20_000 {
            memo.remember("/render/panel.png?lattice=\(long)&n=\(index)", entry)
            largest = max(largest, memo.size.bytes)
        }
        #expect(largest <= RequestMemo.capacityBytes)
        #expect(memo.size.keys < 20_000 && memo.size.keys > 1000, "\(memo.size.keys) keys")
        // What it counts is near what it holds: each key's bytes at least.
        #expect(memo.size.bytes >= memo.size.keys * long.utf8.count)
    }
}

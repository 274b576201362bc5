import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import HTTPTypes
import Hummingbird
import Testing

/// PNG or lossless WebP by `Accept` (imgproxy's auto-WebP): `Vary: Accept` on
/// every render answer, and the format in the ETag and the cache key.
@Suite struct FormatNegotiationTests {
    static let button = "/render/button@2x.png?size=60x22&insets=14,12,14,12"
    static let chromium = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

    /// What `glslice render` writes for the button to a file named `name`.
    func rendered(_ world: ServeWorld, _ name: String) throws -> [UInt8] {
        let path = world.folder.appendingPathComponent(name).path
        let cli = try runGlslice(["render", world.root.appendingPathComponent("button@2x.png").path, "--size", "60x22",
                                  "--insets", "14,12,14,12", "--backend", "cpu", "-o", path])
        #expect(cli.status == 0, "\(cli.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func acceptPicksWebPAndTheTagSaysSo() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let webp = try rendered(world, "expected.webp"), png = try rendered(world, "expected.png")
        try await withServer(world) { port, _ in
            let asPNG = try await get(port, Self.button)
            #expect(asPNG.headers[.contentType] == "image/png" && asPNG.bytes == png)
            #expect(asPNG.headers[.vary] == "Accept")
            let asWebP = try await get(port, Self.button, headers: [.accept: Self.chromium])
            #expect(asWebP.status == .ok)
            #expect(asWebP.headers[.contentType] == "image/webp")
            #expect(asWebP.headers[.vary] == "Accept")
            #expect(asWebP.bytes == webp, "the bytes `glslice render -o x.webp` writes")
            let pngTag = try #require(asPNG.headers[.eTag]), webpTag = try #require(asWebP.headers[.eTag])
            #expect(pngTag != webpTag)
            // Each tag revalidates only its own format: a cache that kept the PNG must not get 304 for WebP.
            let crossed = try await get(port, Self.button, headers: [.accept: Self.chromium, .ifNoneMatch: pngTag])
            #expect(crossed.status == .ok && crossed.headers[.contentType] == "image/webp")
            let same = try await get(port, Self.button, headers: [.accept: Self.chromium, .ifNoneMatch: webpTag])
            #expect(same.status == .notModified && same.headers[.vary] == "Accept" && same.headers[.eTag] == webpTag)
            // A second WebP request is a cache hit, not another render.
            let hits = try await metric(port, "glslice_cache_hits_total") ?? 0
            let again = try await get(port, Self.button, headers: [.accept: "image/webp"])
            #expect(again.bytes == webp)
            #expect(try await metric(port, "glslice_cache_hits_total") ?? 0 > hits)
        }
    }

    @Test(arguments: [
        ("image/png,*/*", "image/png"),
        ("image/*", "image/png"),
        ("*/*", "image/png"),
        ("image/webp;q=0, image/png", "image/png"),
        ("image/png;q=0.5, IMAGE/WEBP ; q=0.2", "image/webp"),
        ("image/webp", "image/webp"),
    ])
    func onlyANamedWebPWithQAboveZeroGetsWebP(accept: String, type: String) async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let response = try await get(port, Self.button, headers: [.accept: accept])
            #expect(response.status == .ok && response.headers[.contentType] == type, "\(accept)")
        }
    }

    @Test func theURLsFormatWinsAndTheSettingTurnsAutoOff() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world, autoWebP: false) { port, _ in
            let png = try await get(port, Self.button, headers: [.accept: Self.chromium])
            #expect(png.headers[.contentType] == "image/png" && png.headers[.vary] == "Accept")
            let asked = try await get(port, Self.button + "&format=webp")
            #expect(asked.headers[.contentType] == "image/webp")
        }
        try await withServer(world) { port, _ in
            let asked = try await get(port, Self.button + "&format=png", headers: [.accept: Self.chromium])
            #expect(asked.headers[.contentType] == "image/png")
            let bad = try await get(port, Self.button + "&format=jpeg")
            #expect(bad.status == .badRequest && bad.headers[.vary] == "Accept")
            #expect(bad.errorMessage?.contains("format must be one of: png, webp, got 'jpeg'") == true, "\(bad.text)")
        }
    }
}

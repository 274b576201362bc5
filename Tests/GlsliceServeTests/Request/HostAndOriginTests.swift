import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import NIOCore
import Testing

/// Who may ask and write (docs/HARDENING.md, round three): a page elsewhere writes nothing, a `Host`
/// the server is not known by is refused everywhere (DNS rebinding), and a public server needs a key.
@Suite struct HostAndOriginTests {
    static let save = "/preview/save-nine-patch"
    static let saveBody = #"{"source": "panel.png", "output": "bubble.9.png", "x": [[6, 11]], "y": [[7, 9]]}"#

    // 1. A page elsewhere cannot write: a no-cors POST is text/plain with its own Origin.
    @Test func aCrossSitePostWritesNothing() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let target = world.root.appendingPathComponent("bubble.9.png")
        let contents = world.root.appendingPathComponent("ui/button.imageset/Contents.json")
        let (bubble, set) = (try Data(contentsOf: target), try Data(contentsOf: contents))
        try await withServer(world) { port, _ in
            // What fetch(url, {method: "POST", mode: "no-cors", body}) sends from https://evil.example.
            let simple = try await postJSON(port, Self.save, Self.saveBody, origin: "https://evil.example", contentType: "text/plain;charset=UTF-8")
            #expect(simple.status.code == 415, "\(simple.text)")
            let imageSet = try await postJSON(port, "/preview/write-image-set", #"{"source": "ui/button.imageset", "insets": "1,1,1,1"}"#,
                                              origin: "https://evil.example", contentType: "text/plain")
            #expect(imageSet.status.code == 415, "\(imageSet.text)")
            // JSON (which a foreign page could only send after a preflight) with a foreign Origin, or none.
            let foreign = try await postJSON(port, Self.save, Self.saveBody, origin: "https://evil.example")
            #expect(foreign.status.code == 403, "\(foreign.text)")
            let nullOrigin = try await postJSON(port, Self.save, Self.saveBody, origin: "null")
            #expect(nullOrigin.status.code == 403)
            let noOrigin = try await postJSON(port, Self.save, Self.saveBody, origin: nil)
            #expect(noOrigin.status.code == 403)
            #expect(noOrigin.errorMessage?.contains("Origin") == true, "\(noOrigin.text)")
        }
        #expect(try Data(contentsOf: target) == bubble)
        #expect(try Data(contentsOf: contents) == set)
    }

    // 2. DNS rebinding: a page whose name points at 127.0.0.1 sends its own name as Host.
    @Test func aForeignHostIsRefusedEverywhere() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let target = world.root.appendingPathComponent("bubble.9.png")
        let bubble = try Data(contentsOf: target)
        try await withServer(world) { port, _ in
            for path in ["/preview/sources", "/", "/render/panel.png?pixels=40x40&insets=8", "/healthz"] {
                let rebound = try await get(port, path, host: "rebind.evil.example:\(port)")
                #expect(rebound.status.code == 421, "\(path): \(rebound.text)")
            }
            // Same-origin for that page: Origin equals Host, and still refused.
            let write = try await postJSON(port, Self.save, Self.saveBody, host: "rebind.evil.example:\(port)",
                                           origin: "http://rebind.evil.example:\(port)")
            #expect(write.status.code == 421, "\(write.text)")
            for name in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "app.localhost:\(port)"] {
                let ok = try await get(port, "/preview/sources", host: name)
                #expect(ok.status == .ok, "\(name): \(ok.text)")
            }
        }
        #expect(try Data(contentsOf: target) == bubble)
    }

    @Test func hostNamesAddNamesAndRestrictAPublicServer() throws {
        let local = KnownHosts(names: ["Design.Lan"], loopbackServer: true)
        #expect(local.allows("design.lan:8080") && local.allows("127.0.0.1") && !local.allows("evil.example"))
        // A public server (a key) answers any name, unless names are given.
        #expect(KnownHosts(names: [], loopbackServer: false).allows("cdn.example"))
        let named = KnownHosts(names: ["img.example"], loopbackServer: false)
        #expect(named.allows("img.example:443") && !named.allows("other.example"))
        // An empty or malformed Host is not a known name.
        #expect(!local.allows(":8080") && !local.allows("[::1"))
    }

    // 3. Loopback is decided from the address bound, not from the text of --bind.
    @Test func aNameThatLooksLoopbackButIsNotIsRefusedWithoutAKey() throws {
        let root = try SourceRoot(fixtures.path)
        // 127.lan resolving to 0.0.0.0 (an /etc/hosts line): every interface.
        #expect(throws: GlsliceError.self) {
            _ = try ServeOptions(root: root, host: "127.lan", port: 0, resolve: { _ in ["0.0.0.0"] })
        }
        let keyed = try ServeOptions(root: root, host: "127.lan", port: 0,
                                     signer: try URLSigner(key: Data("0123456789abcdef0123456789abcdef".utf8)),
                                     resolve: { _ in ["0.0.0.0"] })
        #expect(!keyed.bindAddress.isLoopback && keyed.bindAddress.address == "0.0.0.0" && !keyed.preview)
        // A name that does resolve to loopback only is loopback, and what is bound is the address.
        let named = try ServeOptions(root: root, host: "design.lan", port: 0, resolve: { _ in ["127.0.0.1", "::1"] })
        #expect(named.bindAddress.address == "127.0.0.1" && named.bindAddress.isLoopback && named.preview)
        // One address elsewhere among loopback ones is not loopback.
        #expect(throws: GlsliceError.self) {
            _ = try ServeOptions(root: root, host: "mixed.lan", port: 0, resolve: { _ in ["127.0.0.1", "192.168.1.5"] })
        }
        // The system's resolver: localhost is loopback; the numeric forms, by address.
        #expect(try BindResolution(host: "localhost").isLoopback)
        #expect(try !BindResolution(host: "0.0.0.0").isLoopback)
        #expect(try BindResolution(host: "[::1]").isLoopback)
        for (text, loopback) in [("127.0.0.1", true), ("127.255.0.9", true), ("::1", true), ("::ffff:127.0.0.1", true),
                                 ("0.0.0.0", false), ("::", false), ("128.0.0.1", false), ("127.lan", false), ("::2", false)] {
            #expect(BindResolution.isLoopbackAddress(text) == loopback, "\(text)")
        }
    }
}

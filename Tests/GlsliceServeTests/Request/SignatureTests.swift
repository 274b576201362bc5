import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import Testing

/// Signed URLs: HMAC-SHA256 over the canonical path and query.
@Suite struct SignatureTests {
    static let key = Data("0123456789abcdef0123456789abcdef".utf8)

    /// The signature computed here from the canonical form written by hand: RFC 2104's HMAC
    /// written out over SHA-256 (checked against FIPS 180-2 in SHA256Tests), not libcrypto's HMAC.
    static func handSigned(_ canonical: String) -> String {
        let key = [UInt8](Self.key) + [UInt8](repeating: 0, count: 64 - Self.key.count) // under a block (64 bytes): padded with zeros
        let inner = SHA256.hash(key.map { $0 ^ 0x36 } + Array(canonical.utf8))
        return SHA256.hash(key.map { $0 ^ 0x5c } + inner).map { String(format: "%02x", $0) }.joined()
    }

    @Test func canonicalFormAndSign() throws {
        let signer = try URLSigner(key: Self.key)
        // Escapes decoded and written one way (@ as %40, ',' as %2C), the query sorted, sig left out.
        let canonical = "/render/button%402x.png?insets=14%2C12%2C14%2C12&size=60x22"
        #expect(URLSigner.canonical(path: "/render/button@2x.png", query: QueryItems(raw: "size=60x22&insets=14,12,14,12&sig=ff")!) == canonical)
        let signed = try signer.sign(url: "http://farm:8080/render/button@2x.png?size=60x22&insets=14,12,14,12")
        #expect(signed == "http://farm:8080/render/button@2x.png?size=60x22&insets=14,12,14,12&sig=\(Self.handSigned(canonical))")
        // An old signature is replaced, not kept.
        #expect(try signer.sign(url: signed) == signed)
        #expect(throws: GlsliceError.self) { try signer.sign(url: "/other/x.png?pixels=2x2") }
        #expect(throws: GlsliceError.self) { try URLSigner(key: Data("short".utf8)) }
    }

    @Test func missingWrongAndTamperedSignaturesGet403() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let path = "/render/button@2x.png?size=60x22&insets=14,12,14,12"
        let good = Self.handSigned("/render/button%402x.png?insets=14%2C12%2C14%2C12&size=60x22")
        try await withServer(world, signer: try URLSigner(key: Self.key)) { port, _ in
            #expect(try await get(port, path + "&sig=" + good).status == .ok)
            // The same URL escaped and ordered differently is the same URL.
            #expect(try await get(port, "/render/button%402x.png?insets=14%2C12%2C14%2C12&sig=\(good)&size=60x22").status == .ok)
            let refused = [
                path,                                                     // missing
                path + "&sig=",                                           // empty
                path + "&sig=nothex",                                     // not hex
                path + "&sig=" + String(good.dropLast()) + (good.hasSuffix("0") ? "1" : "0"), // one digit off
                path + "&sig=" + Self.handSigned("/render/button%402x.png?insets=14%2C12%2C14%2C12&size=61x22"), // another URL's
                "/render/button@2x.png?size=600x220&insets=14,12,14,12&sig=" + good,     // tampered size
                "/render/panel.png?size=60x22&insets=14,12,14,12&sig=" + good,           // tampered source
                "/render/../outside/secret.png?pixels=20x20",             // unsigned escape: 403 before any file lookup
            ]
            for url in refused {
                let response = try await get(port, url)
                #expect(response.status == .forbidden, "\(url)")
                #expect(response.errorMessage == "missing or wrong signature (sig)")
            }
            // With a key there is no preview page.
            #expect(try await get(port, "/").status == .notFound)
        }
    }

    @Test func signCommandMatches() throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let keyFile = world.folder.appendingPathComponent("serve.key")
        try (Self.key + Data("\n".utf8)).write(to: keyFile)
        let result = try runGlslice(["sign", "/render/button@2x.png?size=60x22&insets=14,12,14,12", "--key-file", keyFile.path])
        #expect(result.status == 0, "\(result.stderr)")
        let good = Self.handSigned("/render/button%402x.png?insets=14%2C12%2C14%2C12&size=60x22")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "/render/button@2x.png?size=60x22&insets=14,12,14,12&sig=\(good)\n")
        let missing = try runGlslice(["sign", "/render/a.png?pixels=2x2", "--key-file", world.folder.appendingPathComponent("none").path])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("none: cannot be read: no such file, or not readable"))
    }
}

/// What the server says of itself never leaks a signature or mangles a message (issue 19).
@Suite struct RedactionTests {
    @Test func aSignatureIsLeftOutOfTheLogHoweverItsNameIsEscaped() {
        for name in ["sig", "%73ig", "%73%69%67", "si%67"] {
            let logged = AccessLogMiddleware<BasicRequestContext>.redacted(path: "/render/a.png", query: "pixels=9x9&\(name)=abc123")
            #expect(logged == "/render/a.png?pixels=9x9&sig=…", "\(name): \(logged)")
        }
        // Another key that only begins like it is kept.
        #expect(AccessLogMiddleware<BasicRequestContext>.redacted(path: "/r", query: "sigma=1") == "/r?sigma=1")
        #expect(URLSigner.isSignature("%73ig=1") && !URLSigner.isSignature("sigma=1"))
    }

    @Test func rootRedactionTakesOnlyWholePaths() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-redact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = try SourceRoot(folder.path)
        #expect(root.redact("\(root.path)/ui/a.png: corrupt PNG") == "ui/a.png: corrupt PNG")
        #expect(root.redact("cannot read \(root.path)") == "cannot read .")
        #expect(root.redact("\(root.path)x/b.png") == "\(root.path)x/b.png") // a sibling is not the root
        // With --root / nothing is hidden, and no '/' in a message becomes '.'.
        let slash = try SourceRoot("/")
        #expect(slash.redact("/srv/ui/a.png: insets 9/9 do not fit") == "/srv/ui/a.png: insets 9/9 do not fit")
    }
}

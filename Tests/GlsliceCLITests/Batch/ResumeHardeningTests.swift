import Foundation
import Testing
@testable import GlsliceKit

/// `--resume` reads what it needs of an existing output by seeking, and trusts
/// it only when its size matches the job (issue 19's findings).
@Suite struct ResumeHardeningTests {
    let panel = fixtures.appendingPathComponent("panel.png").path

    /// A manifest of `sizes` jobs of panel.png, rendered once; returns the manifest's path.
    func renderedManifest(_ sizes: [String], in folder: URL) throws -> String {
        try FileManager.default.copyItem(atPath: panel, toPath: folder.appendingPathComponent("panel.png").path)
        let manifest = folder.appendingPathComponent("m.jsonl").path
        try sizes.enumerated().map { #"{"input": "panel.png", "output": "out/\#($0.offset).png", "pixels": "\#($0.element)", "insets": 8}"# }
            .joined(separator: "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        // --digest-chunk: the tEXt record these tests forge (and the FIFO test's reader-side check).
        #expect(try glslice(["batch", manifest, "--backend", "cpu", "--digest-chunk"]).status == 0)
        return manifest
    }

    @Test func aFIFOAtAnOutputPathIsNotReadByResume() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try renderedManifest(["64x64", "64x64"], in: folder)
        let fifo = folder.appendingPathComponent("out/1.png").path
        try FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        // A reader at the FIFO: the job, not trusted, is written into it (a FIFO output is written, as documented).
        let reader = FIFOReader(fifo)
        let result = try glsliceWithin(60, ["batch", manifest, "--backend", "cpu", "--resume"])
        #expect(result.status == 0, "\(result.stderr)") // 124 when the resume check blocked reading the FIFO
        #expect(result.stderr.contains("batch: 1 rendered, 1 skipped, 0 failed"), "\(result.stderr)")
        #expect(reader.bytes().prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aPNGOfAnotherSizeCarryingTheJobsDigestIsRenderedAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try renderedManifest(["80x80", "10x10"], in: folder)
        let target = folder.appendingPathComponent("out/0.png"), small = folder.appendingPathComponent("out/1.png")
        // The 10x10 output, its digest swapped for the 80x80 job's (same length), its tEXt CRC recomputed.
        let digest = try #require(Self.text(in: Data(contentsOf: target)))
        var forged = [UInt8](try Data(contentsOf: small))
        let key = Array("glslice-job\0".utf8)
        let at = try #require(Self.find(key, in: forged))
        let old = Array(forged[(at + key.count)..<(at + key.count + 32)])
        #expect(old.count == digest.utf8.count)
        forged.replaceSubrange((at + key.count)..<(at + key.count + 32), with: Array(digest.utf8))
        let chunkStart = at - 4, length = key.count + 32
        let crc = Self.crc32(forged[chunkStart..<(at + length)])
        forged.replaceSubrange((at + length)..<(at + length + 4), with: withUnsafeBytes(of: crc.bigEndian) { Array($0) })
        try Data(forged).write(to: target)
        #expect(Self.text(in: Data(forged)) == digest)

        let result = try glsliceWithin(60, ["batch", manifest, "--backend", "cpu", "--resume"])
        #expect(result.stderr.contains("batch: 1 rendered, 1 skipped, 0 failed"), "\(result.stderr)")
        #expect(try PNGDecoder.decode(path: target.path, maxPixels: 1 << 20).width == 80)
    }

    /// The value of the `glslice-job` tEXt chunk, found by hand.
    static func text(in png: Data) -> String? {
        let bytes = [UInt8](png), key = Array("glslice-job\0".utf8)
        guard let at = find(key, in: bytes) else { return nil }
        return String(decoding: bytes[(at + key.count)..<(at + key.count + 32)], as: UTF8.self)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    /// CRC-32 as PNG defines it (ISO 3309, polynomial 0xEDB88320), bit by bit.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

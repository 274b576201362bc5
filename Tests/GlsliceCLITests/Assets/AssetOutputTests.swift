import Foundation
import Testing
@testable import GlsliceKit

/// `optimize` writes through `OutputFile` like every command (issue 19): a
/// device or FIFO at `-o` is written to, never replaced; a read-only file is
/// refused; an image set's output folder is swapped in, and a folder holding
/// anything glslice did not write is refused and left as it was.
@Suite struct AssetOutputTests {
    let bubble = fixtures.appendingPathComponent("bubble.9.png").path
    let imageSet = fixtures.appendingPathComponent("button.imageset").path

    /// A character device like /dev/null (1, 3), made in the test's own folder (as root).
    @Test(.enabled(if: getuid() == 0, "mknod needs root"))
    func optimizeWritesIntoADeviceNotOverIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let null = folder.appendingPathComponent("null.9.png").path // a nine-patch output is named so
        #expect(mknod(null, S_IFCHR | 0o666, dev_t((1 << 8) | 3) /* makedev(1, 3) */) == 0)
        // An unchanged copy (the input's own bytes) and an optimized file: both paths.
        for input in [bubble, fixtures.appendingPathComponent("android/gradient.9.png").path] {
            let result = try glslice(["optimize", input, "-o", null])
            #expect(result.status == 0, "\(result.stderr)")
            var info = stat()
            #expect(lstat(null, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "\(input): the device was replaced")
        }
    }

    @Test func optimizeWritesIntoAFIFO() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.9.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = FIFOReader(fifo)
        let result = try glsliceWithin(60, ["optimize", bubble, "-o", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(reader.bytes().prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func optimizeRefusesAReadOnlyFileEvenAsRoot() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("kept.9.png").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: out))
        chmod(out, 0o444) // no write bit: refused whoever runs it, as render refuses it
        let result = try glslice(["optimize", bubble, "-o", out])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("read-only"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("keep".utf8))
    }

    @Test func anImageSetOutputFolderWithOtherFilesIsRefusedAndKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("Out.imageset")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let notes = out.appendingPathComponent("notes.txt").path
        try Data("mine".utf8).write(to: URL(fileURLWithPath: notes))
        chmod(notes, 0o444)
        let result = try glslice(["optimize", imageSet, "-o", out.path])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("notes.txt, which glslice did not write"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Out.imageset"]) // nothing left beside it
    }

    @Test func anImageSetOutputOverAFileIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("Out.imageset").path
        #expect(mkfifo(out, 0o644) == 0)
        let result = try glsliceWithin(60, ["optimize", imageSet, "-o", out])
        #expect(result.status == 73, "\(result.stderr)")
        var info = stat()
        #expect(lstat(out, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    /// An image set glslice wrote is replaced whole, by a swap: run twice, the second run replaces the first.
    @Test func anImageSetItWroteIsReplaced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("Out.imageset").path
        for _ in 0..<2 {
            let result = try glslice(["optimize", imageSet, "-o", out])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names.contains("Contents.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Out.imageset"])
        let render = try glslice(["render", out, "--size", "40x20", "--backend", "cpu", "-o", folder.appendingPathComponent("x.png").path])
        #expect(render.status == 0, "\(render.stderr)")
    }
}

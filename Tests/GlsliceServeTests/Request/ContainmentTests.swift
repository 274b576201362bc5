import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Testing

/// The containment suite shared by serve (reads beneath `--root`) and batch
/// (writes beneath `--out-dir`). One hostile tree for both: a root named
/// `café` in NFC with its NFD twin beside it holding a magenta PNG no answer
/// may carry; links out (relative, absolute, to /dev), a FIFO, folders that
/// link to themselves, an image set whose Contents.json and member are links
/// out, and a file swapped for a link out in a loop while requests run. Each
/// test counts bytes served or written outside; the count must be zero.
@Suite struct ContainmentTests {
    static let nfc = "caf\u{e9}"
    static let nfd = "cafe\u{301}"

    /// The hostile tree; `world.outside` is the NFD twin (plus the world's own `outside/`).
    static func hostileWorld() throws -> (world: ServeWorld, twin: URL) {
        let world = try ServeWorld(rootName: nfc)
        let files = FileManager.default
        let twin = world.folder.appendingPathComponent(nfd)
        try files.createDirectory(at: twin, withIntermediateDirectories: true)
        var pixels: [UInt8] = []
        for _ in 0..<64 { pixels += [255, 0, 255, 255] }
        let magenta = StraightImage(RGBAImage(width: 8, height: 8, pixels: pixels))
        try PNGEncoder.write(magenta.premultiplied(), to: .file(twin.appendingPathComponent("magenta.png").path))
        try files.copyItem(at: twin.appendingPathComponent("magenta.png"), to: world.outside.appendingPathComponent("magenta.png"))
        // An image set outside, with magenta slicing facts (cap-insets of 3).
        let contents = #"{"images":[{"filename":"magenta.png","scale":"1x","resizing":{"mode":"9-part","center":{"mode":"stretch"},"cap-insets":{"top":3,"left":3,"bottom":3,"right":3}}}]}"#
        try Data(contents.utf8).write(to: world.outside.appendingPathComponent("Contents.json"))
        let root = world.root.path
        func link(_ name: String, _ target: String) throws {
            try files.createSymbolicLink(atPath: root + "/" + name, withDestinationPath: target)
        }
        try link("sibling", "../" + nfd)                       // the NFD twin, by a relative link
        try link("absolute.png", twin.path + "/magenta.png")   // by an absolute one
        try link("zero.png", "/dev/zero")
        try link("self", ".")
        try files.createDirectory(atPath: root + "/loop/deeper", withIntermediateDirectories: true)
        try link("loop/deeper/up", "../..")
        #expect(mkfifo(root + "/fifo.png", 0o644) == 0)
        // Contents.json a link out; and a set whose member is a link out.
        try files.createDirectory(atPath: root + "/linked.imageset", withIntermediateDirectories: true)
        try link("linked.imageset/Contents.json", "../../outside/Contents.json")
        try files.copyItem(atPath: twin.path + "/magenta.png", toPath: root + "/linked.imageset/magenta.png")
        try files.createDirectory(atPath: root + "/member.imageset", withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: root + "/member.imageset/Contents.json"))
        try link("member.imageset/magenta.png", "../../" + nfd + "/magenta.png")
        return (world, twin)
    }

    /// True when `bytes` are a PNG with a magenta pixel: an answer made from outside.
    static func isFromOutside(_ bytes: [UInt8]) -> Bool {
        guard let image = try? PNGDecoder.decode(data: Data(bytes), maxPixels: 1 << 24) else { return false }
        let p: [UInt8] = image.rgba.pixels
        var i = 0
        while i + 3 < p.count {
            if p[i] == 255 && p[i + 1] == 0 && p[i + 2] == 255 && p[i + 3] > 0 { return true }
            i += 4
        }
        return false
    }

    @Test func serveAnswersNothingFromOutsideTheRoot() async throws {
        let (world, _) = try Self.hostileWorld()
        defer { world.remove() }
        try await withServer(world, timeout: .seconds(20)) { port, _ in
            var outside = 0
            for path in ["/render/sibling/magenta.png?pixels=16x16", "/render/absolute.png?pixels=16x16",
                         "/render/zero.png?pixels=16x16", "/render/fifo.png?pixels=16x16",
                         "/render/linked.imageset?size=16x16", "/render/member.imageset?size=16x16",
                         "/render/self/self/sibling/magenta.png?pixels=16x16", "/render/loop/deeper/up/sibling/magenta.png?pixels=16x16",
                         "/render/" + Self.nfd + "/magenta.png?pixels=16x16",
                         "/preview/info/linked.imageset", "/preview/info/member.imageset", "/preview/info/sibling/magenta.png",
                         "/preview/info/fifo.png"] {
                let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? path
                let answer = try await get(port, escaped)
                #expect(answer.status != .ok, "\(path) answered 200: \(answer.text.prefix(200))")
                if answer.status == .ok, Self.isFromOutside(answer.bytes) || answer.text.contains("\"width\"") { outside += answer.bytes.count }
            }
            #expect(outside == 0)
            // The listing ends although folders link to themselves, and lists nothing outside.
            let listing = try await get(port, "/preview/sources")
            #expect(listing.status == .ok)
            #expect(!listing.text.contains("magenta"), "\(listing.text)")
            #expect(listing.text.contains("panel.png"))
        }
    }

    /// A file swapped for a link out, and back, in a loop while requests run:
    /// check-then-open by name served 15–25% of answers from outside. It runs
    /// until 40 renders were answered (not for a fixed time, which a slow
    /// machine filled with too few), and the swapper must have swapped meanwhile.
    @Test func aRacedLinkServesZeroBytesFromOutside() async throws {
        let (world, twin) = try Self.hostileWorld()
        defer { world.remove() }
        let root = world.root.path
        let inside = root + "/panel.png", swap = root + "/swap.png", staged = root + "/.staged"
        try FileManager.default.copyItem(atPath: inside, toPath: swap)
        let stop = Locked(false), swaps = Locked(0)
        let swapper = Thread {
            var toLink = true
            while !stop.withLock({ $0 }) {
                unlink(staged)
                if toLink { symlink(twin.path + "/magenta.png", staged) } else { link(inside, staged) }
                rename(staged, swap)
                toLink.toggle()
                swaps.withLock { $0 += 1 }
            }
        }
        swapper.start()
        defer { stop.withLock { $0 = true } }
        try await withServer(world, workers: 2, queueLimit: 256, timeout: .seconds(60)) { port, _ in
            let counts = Locked((ok: 0, outside: 0, outsideBytes: 0))
            let wanted = 40, deadline = ContinuousClock.now + .seconds(300)
            let swapsBefore = swaps.withLock { $0 }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<4 {
                    group.addTask {
                        var size = 8 + client
                        while counts.withLock({ $0.ok }) < wanted && ContinuousClock.now < deadline {
                            size += 4 // a new URL each time: no cache or memo answers for it
                            let answer = try await get(port, "/render/swap.png?pixels=\(size)x\(size)")
                            guard answer.status == .ok else { continue }
                            let fromOutside = Self.isFromOutside(answer.bytes)
                            counts.withLock {
                                $0.ok += 1
                                if fromOutside { $0.outside += 1; $0.outsideBytes += answer.bytes.count }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let result = counts.withLock { $0 }
            #expect(result.ok >= wanted, "the race must be exercised: \(result.ok) answers")
            #expect(swaps.withLock { $0 } - swapsBefore > wanted, "the file must change under the requests")
            #expect(result.outsideBytes == 0, "\(result.outside) of \(result.ok) answers came from outside")
        }
    }

    // MARK: Batch

    /// Runs a batch of `outputs` (one job each) into `outDir`; returns the results' statuses.
    static func batch(_ outputs: [String], outDir: String, in folder: URL) throws -> [String] {
        let lines = outputs.map { output -> String in
            let quoted = String(decoding: try! JSONEncoder().encode(output), as: UTF8.self)
            return #"{"input": "\#(fixtures.path)/panel.png", "output": \#(quoted), "insets": "8", "pixels": "24x24"}"#
        }
        let manifest = folder.appendingPathComponent("m-\(UUID().uuidString).jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: manifest)
        var options = BatchOptions(manifest: manifest.path)
        options.outputFolder = outDir
        options.backend = .cpu
        options.workers = 2
        let results = folder.appendingPathComponent("r-\(UUID().uuidString).jsonl").path
        options.results = results
        _ = try BatchRunner(options: options, onError: { _ in }).run()
        let text = try String(contentsOfFile: results, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["status"] as? String
        }
    }

    /// Every regular file under `folder` (links not followed) with its size and change time.
    static func snapshot(_ folder: String) -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return found }
        while let name = walker.nextObject() as? String {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            found[name] = [Int(info.st_size), Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec), Int(info.st_ino)]
        }
        return found
    }

    @Test func batchWritesNothingOutsideItsOutputFolder() throws {
        let (world, twin) = try Self.hostileWorld()
        defer { world.remove() }
        let outDir = world.root.path
        let before = (Self.snapshot(twin.path), Self.snapshot(world.outside.path))
        let accent = "\u{301}"
        let statuses = try Self.batch([
            "sibling/x.png",                                         // a folder link out (to the NFD twin)
            "../" + Self.nfd + "/y.png",                             // the NFD spelling of the out-dir's sibling
            String(repeating: "../" + accent + "q/../", count: 3) + "z.png", // "/" + combining mark: one Character, two names
            "self/sibling/w.png", "loop/deeper/up/sibling/v.png",   // links to themselves, then out
            "sibling/new/deep/u.png",                                // folders created outside through a link
            "absolute.png",                                          // a link at the name itself: replaced, not followed
            "zero.png",                                              // a link to /dev/zero: replaced
            "ok/inside.png",
        ], outDir: outDir, in: world.folder)
        let after = (Self.snapshot(twin.path), Self.snapshot(world.outside.path))
        #expect(after.0 == before.0, "written in the NFD twin: \(Set(after.0.keys).subtracting(before.0.keys))")
        #expect(after.1 == before.1)
        #expect(!FileManager.default.fileExists(atPath: twin.path + "/new"))
        var dev = stat()
        #expect(stat("/dev/zero", &dev) == 0 && dev.st_mode & S_IFMT == S_IFCHR)
        #expect(statuses.count == 9)
        // What stays inside is written there: the inside file and the two links, replaced by files.
        for name in ["ok/inside.png", "absolute.png", "zero.png"] {
            var info = stat()
            #expect(lstat(outDir + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "\(name)")
        }
        #expect(statuses.filter { $0 == "ok" }.count == 3, "\(statuses)")
    }

    /// A folder inside the out-dir swapped for a link out, and back, while a batch writes into it.
    @Test func aRacedFolderLinkWritesZeroBytesOutside() throws {
        let (world, twin) = try Self.hostileWorld()
        defer { world.remove() }
        let outDir = world.root.path
        let real = outDir + "/real", swap = outDir + "/sw", staged = outDir + "/.staged"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        let before = Self.snapshot(twin.path)
        let stop = Locked(false)
        let swapper = Thread {
            var toLink = true
            while !stop.withLock({ $0 }) {
                unlink(staged)
                symlink(toLink ? twin.path : "real", staged)
                rename(staged, swap)
                toLink.toggle()
            }
        }
        swapper.start()
        var statuses: [String] = []
        let deadline = Date().addingTimeInterval(3)
        var round = 0
        while Date() < deadline {
            round += 1
            statuses += try Self.batch((0..<40).map { "sw/\(round)-\($0).png" }, outDir: outDir, in: world.folder)
        }
        stop.withLock { $0 = true }
        while !swapper.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(statuses.contains("ok"), "the race must be exercised")
        #expect(Self.snapshot(twin.path) == before, "written outside through the raced link")
    }

    @Test func duplicateOutputsAreFilesNotStrings() throws {
        let (world, _) = try Self.hostileWorld()
        defer { world.remove() }
        let outDir = world.root.path
        try FileManager.default.createDirectory(atPath: outDir + "/d", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: outDir + "/alias", withDestinationPath: "d")
        // NFC and NFD names are two files; d/x.png and alias/x.png are one.
        let statuses = try Self.batch(["n-\(Self.nfc).png", "n-\(Self.nfd).png", "d/x.png", "alias/x.png"],
                                      outDir: outDir, in: world.folder)
        #expect(statuses.filter { $0 == "ok" }.count == 3, "\(statuses)")
        #expect(statuses.filter { $0 == "error" }.count == 1, "\(statuses)")
        #expect(FileManager.default.fileExists(atPath: outDir + "/n-\(Self.nfc).png"))
        #expect(FileManager.default.fileExists(atPath: outDir + "/n-\(Self.nfd).png"))
    }

    /// Both ways of resolving: openat2, and the walk kernels without it get.
    @Test(arguments: [false, true])
    func theScopeRefusesEveryWayOut(walks: Bool) throws {
        let (world, _) = try Self.hostileWorld()
        defer { world.remove() }
        let scope = try FileScope.beneath(world.root.path, walks: walks)
        for path in ["sibling/magenta.png", "absolute.png", "zero.png", "self/sibling/magenta.png", "../" + Self.nfd + "/magenta.png",
                     "loop/deeper/up/sibling/magenta.png", "linked.imageset/Contents.json", "member.imageset/magenta.png", "/etc/passwd"] {
            #expect(throws: GlsliceError.self, "\(path)") { try scope.openForReading(path) }
        }
        #expect(throws: GlsliceError.self) { try scope.openForReading("fifo.png") } // refused, not waited on
        let (fd, _) = try scope.openForReading("panel.png")
        close(fd)
    }
}


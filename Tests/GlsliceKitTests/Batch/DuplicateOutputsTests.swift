import Foundation
@testable import GlsliceKit
import Testing

/// The later of two lines with one output is refused, whichever way the
/// manifest is read: ahead through the Bloom filter (a file), or as it comes
/// (a FIFO). Issue 19: the exact map of every line's key grew about 48 bytes
/// a job (75 MB at a million jobs).
@Suite struct DuplicateOutputsTests {
    static let lines = [
        #"{"input": "p.png", "output": "a.png", "pixels": "9x9"}"#,      // 1
        #"{"input": "p.png", "output": "b.png", "pixels": "9x9"}"#,      // 2
        #"{"input": "p.png", "output": "./a.png", "pixels": "9x9"}"#,    // 3: line 1's file
        #"not json"#,                                                    // 4
        "",                                                              // 5: blank
        #"{"input": "p.png", "output": "c.png", "pixels": "9x9"}"#,      // 6
        #"{"input": "p.png", "output": "d/../b.png", "pixels": "9x9"}"#, // 7: line 2's file
        #"{"input": "p.png", "output": "a.png", "pixels": "9x9"}"#,      // 8: line 1's file
    ]
    static let expected = [3: 1, 7: 2, 8: 1]

    /// Line → the earlier line it repeats, for every line `reader` gives.
    static func repeats(_ reader: ManifestReader, filterBits: Int? = nil) -> [Int: Int] {
        let scope = reader.outputs.openScope()
        var duplicates = DuplicateOutputs(manifest: reader, shard: .all, outputScope: scope, filterBits: filterBits)
        var found: [Int: Int] = [:]
        while let (number, text) = reader.nextLine() {
            guard let job = try? reader.job(line: number, text: text) else { continue }
            if let earlier = duplicates.earlierLine(for: job, outputScope: scope) { found[number] = earlier }
        }
        return found
    }

    @Test(arguments: [nil, 64]) // 64 bits: nearly every key is a false suspect, settled by the second read
    func aManifestFileIsReadAhead(filterBits: Int?) throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.jsonl")
        try Self.lines.joined(separator: "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let reader = try ManifestReader(path: manifest.path, outputFolder: folder.appendingPathComponent("out").path)
        #expect(Self.repeats(reader, filterBits: filterBits) == Self.expected)
    }

    @Test func aFIFOManifestIsCheckedAsItComes() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("m.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data(Self.lines.joined(separator: "\n").utf8))
            try? handle?.close()
        }
        writer.start()
        let reader = try ManifestReader(path: fifo, outputFolder: folder.appendingPathComponent("out").path)
        #expect(Self.repeats(reader) == Self.expected)
    }

    @Test func theFilterSaysSeenOnlyForWhatWasAdded() {
        var filter = BloomFilter(bits: 1 << 16)
        let first = filter.insert(0.hashValue)
        #expect(first == false) // an empty filter has seen nothing
        for key in 1..<2000 { _ = filter.insert(key.hashValue) }
        for key in 0..<2000 {
            let seen = filter.insert(key.hashValue)
            #expect(seen, "key \(key)") // every key added is seen again
        }
        var fresh = 0
        for key in 2000..<4000 where filter.insert(key.hashValue) { fresh += 1 }
        // 65,536 bits for 2,000 to 4,000 keys, eight probes: false suspects are rare.
        #expect(fresh < 40, "\(fresh) of 2,000 new keys were taken for seen")
    }
}

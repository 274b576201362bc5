import Foundation
import Testing
@testable import GlsliceKit

/// Error words live in one catalogue per kind (Scripts/check-words.py keeps
/// them there), and a near miss is named wherever a word is refused.
@Suite struct ErrorWordsTests {
    @Test func editDistanceMatchesHandCounts() {
        // Worked by hand: kitten→sitten→sittin→sitting; flaw→law→lawn.
        #expect(NearestName.editDistance("kitten", "sitting") == 3)
        #expect(NearestName.editDistance("flaw", "lawn") == 2)
        #expect(NearestName.editDistance("", "abc") == 3)
        #expect(NearestName.editDistance("tile", "tile") == 0)
    }

    @Test func aNearMissIsOfferedAndAFarOneIsNot() {
        #expect(NearestName.to("tiel", among: ResizeMode.allCases.map(\.rawValue)) == "tile")
        #expect(NearestName.to("Strech", among: ResizeMode.allCases.map(\.rawValue)) == "stretch")
        #expect(NearestName.to("zzz", among: Filter.allCases.map(\.rawValue)) == nil)
        // Two letters away from "cpu" is every letter of "ab": not a near miss.
        #expect(NearestName.to("ab", among: ["cpu", "gpu"]) == nil)
        let refused = #expect(throws: GlsliceError.self) { try Filter(parsing: "lineer") }
        #expect(refused?.text(naming: .queryParameter) == "filter must be one of: linear, nearest, got 'lineer'; did you mean 'linear'?")
        #expect(refused?.exitCode == 64)
    }

    /// The script fails on each thing it exists to catch, in a copy of the sources.
    @Test(arguments: [
        ("Sources/GlsliceKit/Plan/Layout.swift", "\nfunc injected() throws { throw GlsliceError(.usage, \"a new condition\") }\n",
         "an error is worded where it is thrown"),
        ("Sources/GlsliceKit/Errors/UsageErrors.swift",
         "\nextension UsageErrors { static func again() -> GlsliceError { GlsliceError(.usage, \"must be true or false\") } }\n",
         "is worded twice"),
        ("Sources/GlsliceKit/Errors/InternalErrors.swift",
         "\nextension InternalErrors { static func wrongKind() -> GlsliceError { GlsliceError(.badInput, \"a misfiled condition here\") } }\n",
         "InternalErrors makes a .badInput error"),
        ("Sources/GlsliceKit/Errors/FileErrors.swift",
         "\nextension FileErrors { static func nobodyReads() -> GlsliceError { GlsliceError(.noInput, \"words nobody will ever read\") } }\n",
         "FileErrors.nobodyReads is never used"),
        ("Sources/GlsliceKit/Plan/Layout.swift", "\nfunc injectedWords() -> GlsliceError { UsageErrors.notPositive(\"the tile count\") }\n",
         "UsageErrors.notPositive is passed the words \"the tile count\""),
    ])
    func checkWordsFailsOn(file: String, appended: String, complaint: String) throws {
        let copy = try copyOfRepository(["Sources", "Scripts"])
        defer { try? FileManager.default.removeItem(at: copy) }
        let script = copy.appendingPathComponent("Scripts/check-words.py")
        let clean = try runScript(script)
        #expect(clean.status == 0, "\(clean.text)")
        try append(appended, to: file, beneath: copy)
        let broken = try runScript(script)
        #expect(broken.status == 1 && broken.text.contains(complaint), "\(broken.text)")
    }
}

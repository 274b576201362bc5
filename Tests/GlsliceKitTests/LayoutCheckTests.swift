import Foundation
import Testing

/// docs/DESIGN.md's layout (a section a folder) is checked against the folders (Scripts/check-flow.py):
/// the script fails on a file the layout does not name and on a name it keeps for a
/// type that is gone, in a copy of the sources.
@Suite struct LayoutCheckTests {
    @Test(arguments: [
        ("Sources/GlsliceKit/Engine/StripCounter.swift", "/// A new type.\nstruct StripCounter {}\n",
         "section for Engine/ does not name `StripCounter`"),
        ("docs/DESIGN.md", "\n#### `Sources/GlsliceKit/Bogus`: nothing\n- `Nothing`\n",
         "has a section for Sources/GlsliceKit/Bogus, which does not exist"),
        ("docs/DESIGN.md", "\nEvery strip loop is `Range.strips(of:)`.\n",
         "names `Range.strips`, whose `strips` is nowhere in the code"),
    ])
    func checkFlowFailsOn(file: String, appended: String, complaint: String) throws {
        let copy = try copyOfRepository(["Sources", "Scripts", "docs", "Tests", "Benchmarks", "Fuzz", "Shaders"])
        defer { try? FileManager.default.removeItem(at: copy) }
        let script = copy.appendingPathComponent("Scripts/check-flow.py")
        let clean = try runScript(script)
        #expect(clean.status == 0, "\(clean.text)")
        try append(appended, to: file, beneath: copy)
        let broken = try runScript(script)
        #expect(broken.status == 1 && broken.text.contains(complaint), "\(broken.text)")
    }

    /// A type renamed in the code but not in the layout is named as missing there.
    @Test func aStaleNameInTheTableIsFound() throws {
        let copy = try copyOfRepository(["Sources", "Scripts", "docs", "Tests", "Benchmarks", "Fuzz", "Shaders"])
        defer { try? FileManager.default.removeItem(at: copy) }
        let design = copy.appendingPathComponent("docs/DESIGN.md")
        let text = try String(contentsOf: design, encoding: .utf8)
        try text.replacingOccurrences(of: "`Strips` (how many rows", with: "`Banding` (how many rows")
            .write(to: design, atomically: true, encoding: .utf8)
        let broken = try runScript(copy.appendingPathComponent("Scripts/check-flow.py"))
        #expect(broken.status == 1 && broken.text.contains("section for Backend/ names `Banding`, which is not declared there"), "\(broken.text)")
    }
}

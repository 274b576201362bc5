import Foundation
import Testing
@testable import GlsliceKit

/// `--backend hybrid`: the CPU workers and the draw stage take jobs from one
/// `HybridScheduler`. With a fake draw stage that is slow, and one that is fast.
@Suite struct HybridTests {
    struct Outcome {
        var summary: BatchSummary
        var sides: HybridFigures
        var drawerJobs: Int
        var results: [(line: Int, output: String)]
    }

    func run(_ lines: [String], in folder: URL, drawer: FakeDrawer?, hybrid: Bool, out: String) throws -> Outcome {
        let lines = lines.map { $0.replacingOccurrences(of: #""output": "out/"#, with: #""output": "\#(out)/"#) }
        let manifest = try writeManifest(lines, in: folder)
        var options = BatchOptions(manifest: manifest)
        options.workers = 3
        let runner = BatchRunner(options: options, onError: { _ in })
        let reader = try ManifestReader(path: manifest, outputFolder: nil, allowOutside: false)
        let resultsPath = folder.appendingPathComponent("\(out).results.jsonl").path
        let results = try ResultsLog(path: resultsPath, append: false, manifest: manifest)
        let recorder = BatchRecorder(manifest: manifest, results: results, resultsPath: resultsPath, backend: "fake",
                                     onError: { _ in }, onProgress: nil)
        let sides = runner.run(reader: reader, recorder: recorder, drawStage: drawer?.stage, hybrid: hybrid, started: Date())
            .figures(wall: 0)
        let summary = recorder.summary(seconds: 0, closing: true)
        let text = try String(contentsOfFile: resultsPath, encoding: .utf8)
        let rows = text.split(separator: "\n").compactMap { line -> (Int, String)? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let number = object["line"] as? Int, let output = object["output"] as? String else { return nil }
            return (number, output)
        }
        return Outcome(summary: summary, sides: sides, drawerJobs: drawer?.drew.withLock { $0 } ?? 0, results: rows)
    }

    @Test(arguments: [0, 30])
    func bothSidesDrawAndNothingIsLostDuplicatedOrChanged(delayMilliseconds: Int) throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = BatchTests.jobLines(60)
        let reference = try run(lines, in: folder, drawer: nil, hybrid: false, out: "cpu")
        #expect(reference.summary.ok == 60 && reference.sides.cpu.outputs == 60 && reference.sides.gpu.outputs == 0)
        let drawer = FakeDrawer(delay: .milliseconds(delayMilliseconds))
        let hybrid = try run(lines, in: folder, drawer: drawer, hybrid: true, out: "hybrid")
        let cpu = hybrid.sides.cpu, gpu = hybrid.sides.gpu
        // Every job once: rendered, counted on one side, and one results line naming its own output.
        #expect(hybrid.summary.ok == 60 && hybrid.summary.failed == 0)
        #expect(cpu.outputs + gpu.outputs == 60)
        // What the drawer drew counts for it unless a backup on the CPU finished first.
        #expect(gpu.outputs <= hybrid.drawerJobs && hybrid.drawerJobs - gpu.outputs <= cpu.backupsWon, "\(hybrid.sides)")
        #expect(cpu.pixels + gpu.pixels == reference.sides.cpu.pixels)
        #expect(hybrid.results.count == 60)
        #expect(Set(hybrid.results.map(\.line)) == Set(1...60))
        for row in hybrid.results { #expect(row.output.hasSuffix("/hybrid/\(row.line - 1).png"), "line \(row.line): \(row.output)") }
        // Whatever its speed, the drawer is tried (its first call is one job); a slow one (30 ms a job) takes little.
        #expect(hybrid.drawerJobs > 0 && gpu.calls > 0, "\(hybrid.sides)")
        if delayMilliseconds > 0 { #expect(cpu.outputs > gpu.outputs, "\(hybrid.sides)") }
        // The same bytes as the CPU alone.
        for i in 0..<60 {
            let a = try Data(contentsOf: folder.appendingPathComponent("cpu/\(i).png"))
            let b = try Data(contentsOf: folder.appendingPathComponent("hybrid/\(i).png"))
            #expect(a == b, "\(i).png")
        }
    }

    @Test func hybridIsAChoiceAndAutoMeansItOnlyWithAGPU() throws {
        #expect(try BackendChoice(parsing: "Hybrid") == .hybrid)
        struct NoGL: Error {}
        // Openers standing in for a GPU: a hardware one, none at all, and llvmpipe.
        let hardware: (Bool) throws -> (gpu: Int, renderer: String) = { _ in (1, "Fake GPU") }
        let none: (Bool) throws -> (gpu: Int, renderer: String) = { _ in throw NoGL() }
        let software: (Bool) throws -> (gpu: Int, renderer: String) = { accept in
            if !accept { throw Backend.Declined(reason: "software") }
            return (2, "llvmpipe")
        }
        func resolve(_ choice: BackendChoice, _ use: BackendUse, _ open: (Bool) throws -> (gpu: Int, renderer: String)) throws
            -> BackendResolution<Int> { try BackendResolution<Int>.resolve(choice, for: use, open: open) }
        let noGPU = try resolve(.auto, .serve, none)
        #expect(!noGPU.drawsOnBoth && noGPU.gpu == nil && noGPU.description == "cpu" && noGPU.warning != nil)
        #expect(throws: NoGL.self) { try resolve(.hybrid, .serve, none) }
        let cpu = try resolve(.cpu, .serve, hardware)
        #expect(!cpu.drawsOnBoth && cpu.gpu == nil)
        let auto = try resolve(.auto, .serve, hardware), hybrid = try resolve(.hybrid, .batch, hardware)
        #expect(auto.drawsOnBoth && hybrid.drawsOnBoth && auto.description == "gpu (Fake GPU) and cpu (hybrid)")
        let gpu = try resolve(.gpu, .serve, hardware)
        #expect(!gpu.drawsOnBoth && gpu.gpu == 1 && gpu.description == "gpu (Fake GPU)")
        // auto over llvmpipe: the CPU, with a reason and no warning; batch's auto and a small render never open GL.
        let declined = try resolve(.auto, .serve, software)
        #expect(declined.gpu == nil && declined.reason == "software" && declined.warning == nil)
        #expect(try resolve(.auto, .batch, none).gpu == nil && resolve(.auto, .batch, none).warning == nil)
        #expect(try resolve(.auto, .oneOutput(PixelSize(width: 100, height: 100)), none).warning == nil)
        // render's auto is the CPU at every size (BackendUse.renderAutoFigures); batch's, like serve's, is hybrid on hardware.
        #expect(try resolve(.auto, .oneOutput(PixelSize(width: 40_000, height: 40_000)), hardware).gpu == nil)
        let batchAuto = try resolve(.auto, .batch, hardware)
        #expect(batchAuto.gpu == 1 && batchAuto.drawsOnBoth && batchAuto.description == "gpu (Fake GPU) and cpu (hybrid)")
        #expect(try resolve(.auto, .batch, software).gpu == nil && resolve(.auto, .batch, software).reason == "software")
        #expect(try !resolve(.hybrid, .oneOutput(PixelSize(width: 10, height: 10)), hardware).drawsOnBoth)
    }
}

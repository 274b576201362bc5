import Foundation
import Testing
@testable import GlsliceKit

@Suite struct PremultiplyTests {
    @Test func handValues() {
        // (255·128 + 127)/255 = 128; (100·51 + 127)/255 = 20; (c·0 + 127)/255 = 0.
        #expect(Premultiply.premultiply(255, alpha: 128) == 128)
        #expect(Premultiply.premultiply(100, alpha: 51) == 20)
        #expect(Premultiply.premultiply(200, alpha: 0) == 0)
        #expect(Premultiply.premultiply(77, alpha: 255) == 77)
        // (128·255 + 64)/128 = 255; (20·255 + 25)/51 = 100; min(255, …) caps overflow.
        #expect(Premultiply.unpremultiply(128, alpha: 128) == 255)
        #expect(Premultiply.unpremultiply(20, alpha: 51) == 100)
        #expect(Premultiply.unpremultiply(9, alpha: 3) == 255)
        #expect(Premultiply.unpremultiply(0, alpha: 0) == 0)
    }

    @Test func zeroAlphaGivesTransparentBlack() {
        let image = PremultipliedImage(RGBAImage(width: 1, height: 1, pixels: [5, 6, 7, 0]))
        #expect(image.straight().rgba.pixels == [0, 0, 0, 0])
    }
}

@Suite struct ScaleAndOptionTests {
    @Test func scaleFromFileName() {
        #expect(Scale.inferred(fromFileName: "a/button@2x.png") == 2)
        #expect(Scale.inferred(fromFileName: "button@3x.9.png") == 3)
        #expect(Scale.inferred(fromFileName: "button@1.5x.png") == 1.5)
        #expect(Scale.inferred(fromFileName: "button.png") == nil)
        #expect(Scale.inferred(fromFileName: "me@home.png") == nil)
    }

    @Test func insetsInPointsBecomeSourcePixels() throws {
        let px = try PixelInsets(Insets(parsing: "14,12,14.5,12"), sourceScale: 2)
        #expect(px == PixelInsets(top: 28, left: 24, bottom: 29, right: 24))
        #expect(throws: GlsliceError.self) { try PixelInsets(Insets(parsing: "1.5,0,0,0"), sourceScale: 1) }
        #expect(throws: GlsliceError.self) { try PixelInsets(Insets(parsing: "1,1,1,1"), sourceScale: 1.5) }
        #expect(try Insets(parsing: "3") == Insets(top: 3, left: 3, bottom: 3, right: 3))
        for bad in ["1,2,3", "a,b,c,d", "-1,0,0,0", "", "1,2,3,4,5"] {
            #expect(throws: GlsliceError.self, "\(bad)") { try Insets(parsing: bad) }
        }
    }

    @Test func insetsBeyondTheImage() {
        #expect(throws: GlsliceError.self) { try Lattice(width: 10, height: 10, insets: .init(top: 0, left: 6, bottom: 0, right: 5)) }
        #expect((try? Lattice(width: 10, height: 10, insets: .init(top: 0, left: 5, bottom: 0, right: 5)))?.x.count == 2)
    }

    @Test func sizes() throws {
        #expect(try OutputSize.parsePoints("120x44").pixels(atScale: 2) == PixelSize(width: 240, height: 88))
        #expect(try OutputSize.parsePoints("10.5x4").pixels(atScale: 2) == PixelSize(width: 21, height: 8))
        #expect(throws: GlsliceError.self) { try OutputSize.parsePoints("10.5x4").pixels(atScale: 1) }
        for bad in ["0x10", "10x0", "-5x3", "10", "axb", "10x10x10", "1.5x2"] {
            #expect(throws: GlsliceError.self, "\(bad)") { try OutputSize.parsePixels(bad) }
        }
    }
}

/// The one option schema: a manifest line's JSON and the canonical text of a digest.
@Suite struct RenderRequestTests {
    func decode(_ json: String) throws -> RenderRequest {
        try JSONDecoder().decode(RenderRequest.self, from: Data(json.utf8))
    }

    @Test func stringAndNumberFormsDecodeAlike() throws {
        let a = try decode(#"{"pixels": "200x44", "insets": "8,8,8,8", "scale": "2", "center": "off", "mode-x": "tile"}"#)
        let b = try decode(#"{"pixels": [200, 44], "insets": 8, "scale": 2, "center": false, "mode": "auto", "mode-x": "tile"}"#)
        #expect(a == b)
        #expect(a.size == .pixels(PixelSize(width: 200, height: 44)))
        #expect(a.insets == Insets(top: 8, left: 8, bottom: 8, right: 8))
        #expect(a.outputScale == 2 && a.fillCenter == false && a.modes == PerAxis(x: .tile, y: .auto))
    }

    @Test func canonicalJSONIsSortedAndSpellsOutDefaults() throws {
        let request = try decode(#"{"size": [10.5, 4], "mode": "round"}"#)
        #expect(request.canonicalJSON == #"{"center":true,"compression":"default","filter":"linear","insets":"0,0,0,0","#
                + #""mode-x":"round","mode-y":"round","size":"10.5x4"}"#)
        // The same request written another way encodes the same.
        #expect(try decode(#"{"size": "10.5x4", "mode-x": "round", "mode-y": "round", "center": true}"#).canonicalJSON
                == request.canonicalJSON)
        // And it decodes back to itself.
        #expect(try decode(request.canonicalJSON) == request)
    }

    /// The hand-written canonical JSON is what `JSONEncoder` writes with sorted keys (an
    /// independent writer): every field set and unset, numbers from whole to 1/3 and 1e-05.
    @Test func canonicalJSONIsJSONEncodersText() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var rng = SeededGenerator(seed: 5151)
        let numbers: [Double] = [0, 1, 2, 3, 0.5, 1.0 / 3.0, 2.5e-5, 1e-4, 1e16, 1e17, 123.25, 7.000001]
        func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        func insets() -> Insets { Insets(top: pick(numbers), left: pick(numbers), bottom: pick(numbers), right: pick(numbers)) }
        for _ in 0..<400 {
            var request = RenderRequest(size: rng.next() % 2 == 0 ? .pixels(PixelSize(width: 1 + Int(rng.next() % 9000), height: 7))
                                                              : .points(width: pick(numbers), height: pick(numbers)))
            request.outputScale = pick([nil] + numbers.map { Optional($0) })
            request.sourceScale = pick([nil] + numbers.map { Optional($0) })
            request.insets = insets()
            request.lattice = pick([nil, LatticeRuns(x: [.init(start: 1, end: 2.5)], y: []), LatticeRuns(x: [], y: [.init(start: 0, end: 1)])])
            request.modes = PerAxis(x: pick(ResizeMode.allCases), y: pick(ResizeMode.allCases))
            request.filter = pick(Filter.allCases)
            request.fillCenter = rng.next() % 2 == 0
            request.compression = pick(Compression.allCases)
            request.small = pick(SmallTarget.allCases)
            request.format = pick([nil] + ImageFormat.allCases.map { Optional($0) })
            request.borderWidth = rng.next() % 2 == 0 ? nil : insets()
            request.outset = rng.next() % 2 == 0 ? nil : insets()
            let expected = String(decoding: try encoder.encode(request), as: UTF8.self)
            #expect(request.canonicalJSON == expected)
        }
    }

    /// An error names its option as a value; each front end spells it: a flag,
    /// a manifest key, a query parameter. The rest of the words are the same.
    @Test func anOptionErrorIsSpelledByEachFrontEnd() {
        do {
            _ = try Scale.parse("-2", option: .sourceScale)
            Issue.record("a negative scale was accepted")
        } catch let error as GlsliceError {
            #expect(error.option == .sourceScale && error.kind == .usage)
            #expect(error.text(naming: .flag) == "--source-scale must be a positive number, got '-2'")
            #expect(error.text(naming: .manifestKey) == "\"source-scale\" must be a positive number, got '-2'")
            #expect(error.text(naming: .queryParameter) == "source-scale must be a positive number, got '-2'")
            var located = error.about("a.png")
            located.manifestLine = ManifestLine(manifest: "jobs.jsonl", number: 3)
            #expect(located.text(naming: .manifestKey) == "jobs.jsonl:3: a.png: \"source-scale\" must be a positive number, got '-2'")
            #expect(located.text(naming: .manifestKey, withManifestLine: false) == "a.png: \"source-scale\" must be a positive number, got '-2'")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func badValuesSayWhatIsExpected() {
        let cases = [
            (#"{"pixels": true}"#, "\"pixels\" must be \"WxH\" or [W, H]"),
            (#"{"scale": "0", "pixels": "1x1"}"#, "\"scale\" must be a positive number, got '0'"),
            (#"{"pixels": "1x1", "insets": {"top": 1}}"#, "\"insets\" must be"),
            (#"{"pixels": "1x1", "mode": 3}"#, "\"mode\" must be a string"),
            (#"{"pixels": "1x1", "filter": "cubic"}"#, "\"filter\" must be one of: linear, nearest, got 'cubic'"),
            (#"{"pixels": "1x1", "size": "1x1"}"#, "alternatives"),
            (#"{}"#, "give the output size"),
        ]
        for (json, message) in cases {
            do {
                _ = try decode(json)
                Issue.record("\(json) was accepted")
            } catch let error as GlsliceError {
                #expect(error.text(naming: .manifestKey).contains(message), "\(json): \(error.message)")
                #expect(error.kind == .usage)
            } catch {
                Issue.record("\(json): \(error)")
            }
        }
    }
}

@Suite struct StageTimesTests {
    /// CPU time adds up as given; a stage given wall time alone (the GL thread's) has none to report.
    @Test func cpuTimeIsKeptOnlyWhereEveryPartHadIt() {
        let times = StageTimes()
        times.add(.encode, StageTime(wall: .milliseconds(30), cpu: .milliseconds(20)), items: 1)
        times.add(.encode, StageTime(wall: .milliseconds(10), cpu: .milliseconds(5)), items: 1)
        times.add(.draw, StageTime(wall: .milliseconds(7), cpu: .milliseconds(6)))
        times.add(.draw, .milliseconds(4))
        #expect(times.seconds(.encode) == 0.04 && times.cpuSeconds(.encode) == 0.025 && times.count(.encode) == 2)
        #expect(times.seconds(.draw) == 0.011 && times.cpuSeconds(.draw) == nil)
        #expect(times.cpuSeconds(.write) == 0)
    }

    /// A thread's CPU clock moves with work and stands still while it sleeps; the wall clock moves with both.
    @Test func theThreadClockCountsWorkNotSleep() {
        let start = StageClock.now
        var x: UInt64 = 1
        for i in 0..<20_000_000 { x = x &* 6_364_136_223_846_793_005 &+ UInt64(i) }
        let worked = StageClock.now - start
        Thread.sleep(forTimeInterval: 0.2)
        let slept = StageClock.now - start - worked
        #expect(x != 0 && worked.cpu > .zero && worked.cpu <= worked.wall + .milliseconds(1))
        #expect(slept.wall >= .milliseconds(190) && slept.cpu < .milliseconds(50), "\(slept)")
    }

    /// The one strip loop: whole strips in order, the last shorter and marked, nothing for no rows.
    @Test func stripsCoverTheRowsInOrder() {
        var seen: [(Range<Int>, Bool)] = []
        (3..<13).eachStrip(of: 4) { seen.append(($0, $1)) }
        #expect(seen.map(\.0) == [3..<7, 7..<11, 11..<13] && seen.map(\.1) == [false, false, true])
        seen = []
        (0..<2).eachStrip(of: 0) { seen.append(($0, $1)) }
        #expect(seen.map(\.0) == [0..<1, 1..<2] && seen.map(\.1) == [false, true])
        (5..<5).eachStrip(of: 8) { _, _ in Issue.record("no rows, no strip") }
    }

    /// The one "gather until the budget" rule: a group is flushed before the element that would pass
    /// the limit in either part, and an element over the limit goes alone.
    @Test func groupsStayWithinTheirLimit() {
        let one = [3, 4, 10, 2, 2, 2].grouped(within: SIMD2(6, .max)) { SIMD2($0, 0) }
        #expect(one == [[3], [4], [10], [2, 2, 2]])
        let two = [(1, 3), (1, 3), (1, 1), (7, 0)].grouped(within: SIMD2(8, 5)) { SIMD2($0.0, $0.1) }
        #expect(two.map { $0.map(\.0) } == [[1], [1, 1], [7]])
        #expect([Int]().grouped(within: SIMD2(1, 1)) { SIMD2($0, $0) }.isEmpty)
    }
}

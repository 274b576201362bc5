import Foundation
@testable import GlsliceKit

/// Opaque grey pixels (r = g = b = value) in one row, as a premultiplied source.
func greyRow(_ values: [UInt8]) -> PremultipliedImage {
    PremultipliedImage(RGBAImage(width: values.count, height: 1,
                                 pixels: values.flatMap { [$0, $0, $0, 255] }))
}

/// The same pixels standing in one column.
func greyColumn(_ values: [UInt8]) -> PremultipliedImage {
    PremultipliedImage(RGBAImage(width: 1, height: values.count,
                                 pixels: values.flatMap { [$0, $0, $0, 255] }))
}

/// An expected output pixel along a 1-D run: a grey level, or transparent.
enum Expected: Equatable, CustomStringConvertible {
    case grey(UInt8)
    case clear

    var rgba: [UInt8] {
        switch self {
        case .grey(let v): [v, v, v, 255]
        case .clear: [0, 0, 0, 0]
        }
    }

    var description: String {
        switch self {
        case .grey(let v): "\(v)"
        case .clear: "T"
        }
    }
}

extension Expected: ExpressibleByIntegerLiteral {
    init(integerLiteral value: UInt8) { self = .grey(value) }
}

let T = Expected.clear

/// A lattice that is `segments` along one axis and a single scalable pixel along the other.
func lineLattice(_ segments: [(Int, Int, Bool)], vertical: Bool) throws -> Lattice {
    let segs = segments.map { Segment($0.0, $0.1, scalable: $0.2) }
    let length = segs.last?.end ?? 0
    let one = [Segment(0, 1, scalable: true)]
    return vertical
        ? try Lattice(width: 1, height: length, x: one, y: segs)
        : try Lattice(width: length, height: 1, x: segs, y: one)
}

/// Renders a 1-D source along x (as a row) or y (as a column) and returns the
/// output run as grey levels, so one set of hand-computed numbers checks both axes.
func renderLine(_ values: [UInt8], segments: [(Int, Int, Bool)], length: Int, k: Double,
                mode: ResizeMode, filter: Filter = .linear, vertical: Bool) throws -> [Expected] {
    let lattice = try lineLattice(segments, vertical: vertical)
    let across = max(1, Int((k).rounded(.up)))
    let size = vertical ? PixelSize(width: across, height: length) : PixelSize(width: length, height: across)
    let modes = vertical ? PerAxis(x: ResizeMode.stretch, y: mode) : PerAxis(x: mode, y: .stretch)
    let plan = try PlanBuilder.plan(lattice: lattice, size: size, k: k, modes: modes, filter: filter, fillCenter: true)
    let source = vertical ? greyColumn(values) : greyRow(values)
    let image = try Backend.cpu.image(plan, source: source)
    return (0..<length).map { i in
        let px = vertical ? image.rgba[0, i] : image.rgba[i, 0]
        if px == [0, 0, 0, 0] { return .clear }
        if px[0] == px[1] && px[1] == px[2] && px[3] == 255 { return .grey(px[0]) }
        return .grey(0) // not a grey pixel: fails any grey expectation except 0
    }
}

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let fixtures = packageRoot.appendingPathComponent("Fixtures")

/// Waits for `condition` to hold, looking every millisecond for at most
/// `seconds`: a test waits for a state (threads blocked, say) instead of
/// sleeping a fixed time and hoping it was reached. False when it never held.
func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}

/// Whether `body`, run on a thread of its own, returns true within `seconds`.
/// For a call that blocks for good when the code under test fails to wake it:
/// the test then fails instead of stalling the run (the thread stays blocked).
func holdsWithin(seconds: Double = 10, _ body: @escaping @Sendable () -> Bool) -> Bool {
    let result = Locked<Bool?>(nil)
    Thread { let held = body(); result.withLock { $0 = held } }.start()
    return waitUntil(seconds: seconds) { result.withLock { $0 } != nil } && result.withLock { $0 } == true
}

/// Runs one of Scripts/ with python3: its exit status and what it printed (stdout and stderr).
func runScript(_ script: URL, _ arguments: [String] = []) throws -> (status: Int32, text: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path] + arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

/// A copy of the repository's `folders` in a fresh temporary folder, where a
/// checking script can be run on a tree the test then breaks; remove it after.
func copyOfRepository(_ folders: [String]) throws -> URL {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-tree-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    for folder in folders {
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent(folder), to: copy.appendingPathComponent(folder))
    }
    return copy
}

/// Appends `text` to the file at `path` beneath `root`, making the file if it is missing.
func append(_ text: String, to path: String, beneath root: URL) throws {
    let file = root.appendingPathComponent(path)
    if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    let handle = try FileHandle(forWritingTo: file)
    handle.seekToEndOfFile()
    handle.write(Data(text.utf8))
    try handle.close()
}

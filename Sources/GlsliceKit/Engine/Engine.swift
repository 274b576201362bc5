import Foundation

/// The engine's one encode step: a prepared job's strips, from wherever they
/// were drawn, into a PNG (with the job's opacity rule) or a lossless WebP, in
/// a file or in memory. Every front end reaches it: `render`, batch's encode
/// stage, serve's render threads.
package enum Engine {
    /// - Parameters:
    ///   - drawing: where the strips come from; `.here` draws them with `backend` as they are encoded.
    ///   - backend: what `.here` draws with: the CPU, or the backend a single `render` opened.
    ///   - recordDigest: write the job digest as a tEXt chunk (batch outputs, for `--resume`).
    ///   - times: where draw, encode and write time is charged (nil: nowhere).
    ///   - mayName: asked just before a file is named; false discards it (the hybrid's losing copy).
    ///   - willName: told the file's byte count and modification time just before it is named.
    package static func encode(_ job: PreparedJob, drawing: Drawing, backend: Backend = .cpu, to target: OutputTarget,
                               recordDigest: Bool = false, strips: Strips = Strips(), times: StageTimes? = nil,
                               mayName: (() -> Bool)? = nil,
                               willName: ((_ bytes: Int, _ modified: Int, _ folder: Int32) -> Void)? = nil) throws -> EncodedImage {
        let text = recordDigest ? (JobDigest.textKey, job.digest) : nil
        let started = StageClock.now
        var encoder: any ImageEncoder = switch job.request.format ?? .png {
        case .png:
            // glslice's deflate writes the plan's repeats (unless the GPU already has); the zlib levels search for their own (`repeats` is `.none`).
            try PNGEncoder(target: target, size: job.size, opaque: job.isOpaque, compression: job.request.compression,
                           repeats: drawing.isEncoded ? .none : job.repeats,
                           text: text)
        case .webp: try WebPEncoder(target: target, size: job.size, compression: job.request.compression, record: text)
        }
        encoder.mayName = mayName
        encoder.willName = willName
        var drawTime = StageTime.zero
        /// Waiting for strips drawn elsewhere: idle, so no stage's busy time.
        var waitTime = StageTime.zero
        switch drawing {
        case .here:
            // Making the drawer (its taps, windows, upload) is drawing too: charged to draw, not encode.
            let made = StageClock.now
            let drawer = try backend.drawer(job.plan, source: job.source.image, taps: job.taps)
            drawTime += StageClock.now - made
            try strips.draw(drawer, size: job.size, into: encoder) { drawTime += $0 }
        case .strip(let strip):
            try encoder.write(premultipliedRows: strip.first, count: strip.rows, rowStride: strip.rowStride)
        case .encoded(let data):
            guard let png = encoder as? PNGEncoder else { throw InternalErrors.encodedForAnotherFormat() }
            let bytes = try png.finish(encoded: data)
            times?.add(.write, png.fileTime)
            times?.add(.encode, StageClock.now - started - png.fileTime, items: 1)
            return EncodedImage(byteCount: bytes, data: png.memoryData)
        case .stream(let stream):
            while true {
                let waited = StageClock.now
                let next = try stream.next()
                waitTime += StageClock.now - waited
                guard let strip = next else { break }
                try encoder.write(premultipliedRows: strip.first, count: strip.rows, rowStride: strip.rowStride)
            }
        }
        let bytes = try encoder.finish()
        let total = StageClock.now - started
        if let times {
            times.add(.draw, drawTime)
            times.add(.write, encoder.fileTime)
            let helpers = StageTime(wall: .zero, cpu: encoder.helperCPU)
            times.add(.encode, total - drawTime - waitTime - encoder.fileTime + helpers, items: 1)
        }
        return EncodedImage(byteCount: bytes, data: encoder.memoryData)
    }
}

extension Drawing {
    var isEncoded: Bool {
        if case .encoded = self { return true }
        return false
    }
}

extension OutputTarget {
    /// The same target with `durable` set, where it is a file.
    package func durable(_ durable: Bool) -> OutputTarget {
        switch self {
        case .file(let path, let was): .file(path, durable: durable || was)
        case .contained(let path, let scope, let was): .contained(path, beneath: scope, durable: durable || was)
        default: self
        }
    }
}

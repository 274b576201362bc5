import Foundation

/// Where an encoded image goes.
package enum EncodeSink: Sendable {
    /// A file (written atomically), standard output or a descriptor.
    case output(OutputTarget, durable: Bool = false)
    /// Bytes returned to the caller (serve's answers).
    case memory
}

/// What the encode step produced.
package struct EncodedImage: Sendable {
    /// Bytes written.
    package var byteCount: Int
    /// The PNG or WebP itself, for `.memory`.
    package var data: [UInt8]?
}

/// The one encode step: a prepared job's rows, from wherever they were drawn,
/// into a PNG (with the job's opacity rule) or a lossless WebP, in a file or in memory.
package enum EncodeStep {
    /// - Parameters:
    ///   - recordDigest: write the job digest as a tEXt chunk (batch outputs, for `--resume`).
    ///   - times: where draw, encode and write time is charged (nil: nowhere).
    package static func encode(_ job: PreparedJob, drawing: Drawing, to sink: EncodeSink, recordDigest: Bool = false,
                              banding: Banding = Banding(), times: StageTimes? = nil) throws -> EncodedImage {
        switch drawing {
        case .onCPU:
            let renderer = CPURenderer.PlanWithTaps(plan: job.plan, source: job.source.image)
            return try encode(job, bands: renderer, to: sink, recordDigest: recordDigest, banding: banding, times: times)
        case .rows, .stream:
            return try encode(job, pixels: drawing, bands: nil, to: sink, recordDigest: recordDigest, banding: banding, times: times)
        }
    }

    /// `encode`, drawing the bands here with `renderer` as they are encoded
    /// (`render`, whose one thread owns its backend, GPU or CPU).
    package static func encode(_ job: PreparedJob, bands renderer: any BandRenderer, to sink: EncodeSink, recordDigest: Bool = false,
                              banding: Banding = Banding(), times: StageTimes? = nil) throws -> EncodedImage {
        try encode(job, pixels: .onCPU, bands: renderer, to: sink, recordDigest: recordDigest, banding: banding, times: times)
    }

    private static func encode(_ job: PreparedJob, pixels drawing: Drawing, bands: (any BandRenderer)?, to sink: EncodeSink,
                               recordDigest: Bool, banding: Banding, times: StageTimes?) throws -> EncodedImage {
        let clock = ContinuousClock()
        let text = recordDigest ? (JobDigest.textKey, job.digest) : nil
        let started = clock.now
        let writer: any ImageWriter
        switch (sink, job.request.format ?? .png) {
        case (.output(let target, let durable), .png):
            writer = try PNGWriter(target: target.durable(durable), size: job.size, opaque: job.isOpaque,
                                   compression: job.request.compression, text: text)
        case (.memory, .png):
            writer = try PNGWriter(memorySize: job.size, opaque: job.isOpaque, compression: job.request.compression,
                                   text: text)
        case (.output(let target, let durable), .webp):
            writer = try WebPWriter(target: target.durable(durable), size: job.size, compression: job.request.compression,
                                    record: text)
        case (.memory, .webp):
            writer = try WebPWriter(memorySize: job.size, compression: job.request.compression, record: text)
        }
        var drawTime = Duration.zero
        /// Waiting for bands drawn elsewhere: idle, so no stage's busy time.
        var waitTime = Duration.zero
        switch drawing {
        case .onCPU:
            guard let bands else { throw InternalErrors.noBandRenderer() }
            try banding.render(bands, size: job.size, into: writer) { drawTime += $0 }
        case .rows(let rows):
            try writer.write(premultipliedRows: rows.first, count: rows.rows, rowStride: rows.rowStride)
        case .stream(let stream):
            while true {
                let waited = clock.now
                let next = try stream.next()
                waitTime += clock.now - waited
                guard let band = next else { break }
                try writer.write(premultipliedRows: band.first, count: band.rows, rowStride: band.rowStride)
            }
        }
        let bytes = try writer.finish()
        let total = clock.now - started
        if let times {
            times.add(.draw, drawTime)
            times.add(.write, writer.fileTime)
            times.add(.encode, total - drawTime - waitTime - writer.fileTime, items: 1)
        }
        return EncodedImage(byteCount: bytes, data: writer.memoryData)
    }
}

extension OutputTarget {
    /// The same target with `durable` set, where it is a file.
    func durable(_ durable: Bool) -> OutputTarget {
        switch self {
        case .file(let path, let was): .file(path, durable: durable || was)
        case .contained(let path, let scope, let was): .contained(path, beneath: scope, durable: durable || was)
        default: self
        }
    }
}

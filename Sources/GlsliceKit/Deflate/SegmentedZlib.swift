import CPNG
import Dispatch
import Foundation

/// The zlib stream of a PNG's image data, built from pieces (RFC 1950/1951):
/// rows cut into segments whose boundaries depend only on the image; each is
/// raw deflate primed with the 32 KiB before it (`deflateSetDictionary`) and
/// ends in a sync flush, so pieces compress on several threads and concatenate
/// into one stream, the same bytes whatever the thread count (as pigz and mtpng
/// do). The Adler-32 of the whole is kept as rows arrive. Small images (one
/// piece) get exactly the stream zlib alone would write, with the window shrunk
/// as libpng shrinks it.
///
/// Repeated rows were once written here as copy blocks of glslice's own
/// Huffman coding; measured on the outputs where they should have won (a
/// 20,000² stretched panel, a 4,000 × 60,000 gradient, the 20,000² tiled
/// texture) they never beat zlib's own matches, so they went (docs/BENCHMARKS-LOG.md).
package final class SegmentedZlib {
    /// Where the stream is cut. Fixed for every image glslice writes, so the
    /// bytes never depend on the machine; tests cut small to exercise the seams.
    package struct Cuts: Sendable {
        /// Raw bytes per zlib piece on a large image: enough that the primed
        /// dictionary and the flush cost little (1.2% on a 20,000² tiled
        /// output), small enough that such an output yields a piece every 17
        /// rows for the threads.
        var pieceBytes: Int

        static let standard = Cuts()

        init(pieceBytes: Int = 1 << 20) {
            self.pieceBytes = pieceBytes
        }

        /// Rows in every piece but the last: a piece ends after the row that
        /// brings it to `pieceBytes` (`appendRows`), so each holds this many.
        func rowsPerPiece(rowBytes: Int) -> Int { max(1, (pieceBytes + rowBytes - 1) / rowBytes) }
    }

    /// What compresses a piece: zlib at a level (searching for repeats), or
    /// `RepeatDeflater` (told them), glslice's own coder (`default`, `fast`).
    enum Coder: Sendable {
        case zlib(level: Int32)
        case repeats(RepeatDeflater)
        /// Each piece both ways, the fewer bytes kept (zlib's on a tie): pieces of either end on a
        /// byte and reach back only into the window, so they mix (`small`).
        case smaller(level: Int32, RepeatDeflater)
    }

    private let cuts: Cuts

    private let coder: Coder
    private let windowBits: Int32
    private let window: Int
    private let rowBytes: Int
    private let threads: Int
    private let emit: ([UInt8]) throws -> Void

    /// The last bytes of the raw stream, from `recentBase` on; rows are
    /// written straight into it, and a piece compressed on another thread
    /// takes it over whole (`submitZlib`).
    private var recent: RawBytes
    private var recentBase = 0
    /// Buffers of pieces already written, for reuse.
    private var spare: [RawBytes] = []
    /// Raw bytes appended so far.
    private var produced = 0
    /// Where the zlib piece not yet submitted begins.
    private var pieceStart = 0
    private var adler: UInt = 1
    private var pending: [Piece] = []
    private var started = false

    /// A piece on its way: compressed bytes, or a compression still running.
    private final class Piece: @unchecked Sendable {
        var bytes: [UInt8] = []
        var failure: Int32 = Z_OK
        let done = DispatchSemaphore(value: 0)
        /// The raw bytes it was compressed from, when it took them over.
        var source: RawBytes?
        /// The CPU time of the helper thread that compressed it (zero on the caller's thread).
        var cpu = Duration.zero
        /// The stream's Adler-32 where the piece is the whole image with its rows unfiltered (`PieceGuard`).
        var adler: UInt32?
    }

    /// The CPU time helper threads spent on pieces written so far: the encode stage's too,
    /// though no clock of the encoding thread sees it (`StageClock`).
    private(set) var helperCPU = Duration.zero

    /// - Parameters:
    ///   - totalBytes: the raw stream's length (rows × row bytes), which sets the window.
    ///   - rowBytes: one row with its filter byte.
    ///   - threads: how many pieces may compress at once (1: on the caller's thread).
    ///   - emit: receives the stream in order, a piece at a time.
    init(coder: Coder, totalBytes: Int, rowBytes: Int, threads: Int, cuts: Cuts = .standard, emit: @escaping ([UInt8]) throws -> Void) {
        self.coder = coder
        let bits = Self.windowBits(totalBytes: totalBytes)
        windowBits = bits
        window = 1 << Int(bits)
        self.rowBytes = rowBytes
        self.threads = max(1, threads)
        self.cuts = cuts
        recent = RawBytes(capacity: min(totalBytes, cuts.pieceBytes + (1 << Int(bits))) + rowBytes)
        self.emit = emit
    }

    /// libpng's rule (png_deflate_claim): the smallest window that still
    /// covers the whole image, 512 bytes at least.
    static func windowBits(totalBytes: Int) -> Int32 {
        var bits: Int32 = 15
        while bits > 9 && totalBytes + 262 <= 1 << Int(bits - 1) { bits -= 1 }
        return bits
    }

    /// The two-byte zlib header (RFC 1950 §2.2) for this window and level.
    private var header: [UInt8] {
        let flevel = switch coder {
        case .zlib(let level): level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3
        case .repeats: 0 // "fastest"
        case .smaller: 3 // "maximum compression"
        }
        return Self.header(windowBits: windowBits, flevel: flevel)
    }

    /// The zlib header for a window and FLEVEL (0 for `fast`: "fastest").
    static func header(windowBits: Int32, flevel: Int) -> [UInt8] {
        let cmf = Int(windowBits - 8) << 4 | 8
        var flg = flevel << 6
        flg += 31 - (cmf * 256 + flg) % 31
        return [UInt8(cmf), UInt8(flg)]
    }

    /// Appends `count` rows (each filter byte first, `rowBytes` long), which
    /// `fill(r, at)` writes in place: the rows up to a piece's end at once, with
    /// one Adler-32 update (per row, its calls were most of a 1-px-wide output's writing).
    func appendRows(_ count: Int, _ fill: (Int, UnsafeMutablePointer<UInt8>) -> Void) throws {
        if !started {
            started = true
            try emit(header)
        }
        var r = 0
        while r < count {
            // A piece ends after the row that brings it to `pieceBytes`.
            let toPieceEnd = max(1, (pieceStart + cuts.pieceBytes - produced + rowBytes - 1) / rowBytes)
            let n = min(count - r, toPieceEnd), bytes = n * rowBytes
            recent.reserve(bytes)
            let first = recent.base + recent.count
            for k in 0..<n { fill(r + k, first + k * rowBytes) }
            adler = UInt(libdeflate_adler32(UInt32(adler), first, bytes))
            recent.count += bytes
            produced += bytes
            if produced - pieceStart >= cuts.pieceBytes {
                try submitZlib(from: pieceStart, to: produced, last: false)
            }
            trim()
            r += n
        }
    }

    /// Finishes the stream: the last piece, then the Adler-32.
    func finish() throws {
        if !started {
            started = true
            try emit(header)
        }
        if produced > pieceStart {
            try submitZlib(from: pieceStart, to: produced, last: true)
        } else {
            // Nothing left: an empty final block (fixed Huffman, just end-of-block).
            let piece = Piece()
            piece.bytes = [0x03, 0x00]
            piece.done.signal()
            try enqueue(piece)
        }
        while !pending.isEmpty { try writeOldest() }
        try emit([UInt8(adler >> 24 & 0xFF), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
    }

    private func submitZlib(from start: Int, to end: Int, last: Bool) throws {
        let dictionaryStart = max(0, start - window)
        pieceStart = end
        let piece = Piece()
        let coder = self.coder, rowBytes = self.rowBytes, windowBits = self.windowBits, firstRow = start / rowBytes, rows = (end - start) / rowBytes
        let source = recent, sourceBase = recentBase
        if threads == 1 {
            // On this thread, straight from `recent`.
            Self.compress(piece, coder: coder, data: source.base + (start - sourceBase), history: start - dictionaryStart,
                          firstRow: firstRow, rows: rows, rowBytes: rowBytes, windowBits: windowBits, last: last)
        } else {
            // The piece takes `recent` over; a fresh buffer keeps the window before `end`.
            let keep = max(end - window, recentBase)
            let fresh = spare.popLast() ?? RawBytes(capacity: cuts.pieceBytes + window + rowBytes)
            fresh.count = 0
            fresh.reserve(produced - keep + rowBytes)
            fresh.base.update(from: source.base + (keep - sourceBase), count: produced - keep)
            fresh.count = produced - keep
            recent = fresh
            recentBase = keep
            piece.source = source
            DispatchQueue.global().async {
                let began = StageClock.threadCPU
                Self.compress(piece, coder: coder, data: source.base + (start - sourceBase), history: start - dictionaryStart,
                              firstRow: firstRow, rows: rows, rowBytes: rowBytes, windowBits: windowBits, last: last, cpuSince: began)
            }
        }
        try enqueue(piece)
    }

    /// Compresses one piece of whole rows, `history` bytes of the window
    /// readable before `data`, into `piece`, and signals it.
    private static func compress(_ piece: Piece, coder: Coder, data: UnsafePointer<UInt8>, history: Int,
                                 firstRow: Int, rows: Int, rowBytes: Int, windowBits: Int32, last: Bool, cpuSince: Duration? = nil) {
        switch coder {
        case .repeats(let deflater):
            let ours = ours(deflater, data: data, history: history, firstRow: firstRow, rows: rows, windowBits: windowBits, last: last)
            (piece.bytes, piece.failure, piece.adler) = (ours.bytes, ours.status, ours.adler)
        case .zlib(let level):
            zlib(piece, level: level, data: data, history: history, bytes: rows * rowBytes, windowBits: windowBits, last: last)
        case .smaller(let level, let deflater):
            zlib(piece, level: level, data: data, history: history, bytes: rows * rowBytes, windowBits: windowBits, last: last)
            let ours = ours(deflater, data: data, history: history, firstRow: firstRow, rows: rows, windowBits: windowBits, last: last)
            if piece.failure == Z_OK, ours.status == Z_OK, ours.bytes.count < piece.bytes.count { (piece.bytes, piece.adler) = (ours.bytes, ours.adler) }
            // A whole image in one piece: its rows also filtered as PNG optimizers filter them, by libdeflate.
            if piece.failure == Z_OK, history == 0, last,
               let other = SmallFilters.coded(data, rows: rows, rowBytes: rowBytes, filtered: deflater.filtersRows, pixelBytes: deflater.pixelBytes),
               other.bytes.count < piece.bytes.count {
                (piece.bytes, piece.adler) = (other.bytes, other.adler)
            }
        }
        if let cpuSince { piece.cpu = StageClock.threadCPU - cpuSince }
        piece.done.signal()
    }

    /// The default's piece: glslice's deflate, or zlib 6's (`PieceGuard.recoded`) where its rows are narrow or its tokens pass `PieceGuard`'s limits,
    /// or the smaller of the two where they are many and dear (`PieceGuard.asksZlib`).
    private static func ours(_ deflater: RepeatDeflater, data: UnsafePointer<UInt8>, history: Int, firstRow: Int, rows: Int,
                             windowBits: Int32, last: Bool) -> PieceGuard.Recoded {
        let rowBytes = deflater.rowBytes, raw = rows * rowBytes
        func zlib() -> PieceGuard.Recoded {
            PieceGuard.recoded(data, history: history, count: raw, windowBits: windowBits, last: last, unfiltering: deflater.filtersRows ? rowBytes : nil)
        }
        guard !PieceGuard.narrow(rowBytes: rowBytes),
              let ours = deflater.deflate(data, history: history, firstRow: firstRow, rows: rows, last: last, guarded: true) else { return zlib() }
        if PieceGuard.asksZlib(tokens: ours.tokens, codedBytes: ours.codedBytes, rawBytes: raw, wholeImage: history == 0 && last) {
            let other = zlib()
            if other.status == Z_OK, other.bytes.count < ours.bytes.count { return other }
        }
        return PieceGuard.Recoded(bytes: ours.bytes)
    }

    /// zlib's deflate of the piece into `piece.bytes`, or its failure.
    private static func zlib(_ piece: Piece, level: Int32, data: UnsafePointer<UInt8>, history: Int, bytes: Int, windowBits: Int32, last: Bool) {
        (piece.bytes, piece.failure) = zlib(data, history: history, count: bytes, level: level, windowBits: windowBits, last: last)
    }

    /// zlib's raw deflate at `level` of `count` bytes at `data`, primed with the `history` bytes before
    /// them, ending in a sync flush or (`last`) the final block; with zlib's status (no bytes unless `Z_OK`).
    static func zlib(_ data: UnsafePointer<UInt8>, history: Int, count: Int, level: Int32, windowBits: Int32, last: Bool)
        -> (bytes: [UInt8], status: Int32) {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = gs_deflate_piece(data - history, history, data, count, level, windowBits, last ? 1 : 0, &out, &length)
        guard status == Z_OK, let out else { return ([], status == Z_OK ? Z_MEM_ERROR : status) }
        defer { free(out) }
        return (Array(UnsafeBufferPointer(start: out, count: length)), Z_OK)
    }

    /// Holds at most two pieces per thread in flight, writing the oldest first.
    private func enqueue(_ piece: Piece) throws {
        pending.append(piece)
        while pending.count > 2 * threads { try writeOldest() }
    }

    private func writeOldest() throws {
        let piece = pending.removeFirst()
        piece.done.wait()
        helperCPU += piece.cpu
        if let replaced = piece.adler { adler = UInt(replaced) } // the one piece's rows, unfiltered
        if let source = piece.source, spare.count < 2 { spare.append(source) }
        guard piece.failure == Z_OK else {
            throw InternalErrors.zlibFailed(status: Int32(piece.failure))
        }
        try emit(piece.bytes)
    }

    /// Keeps only what is still needed: the unsubmitted piece, and a window before it.
    private func trim() {
        let keep = max(pieceStart - window, recentBase)
        if keep - recentBase >= max(1 << 16, recent.count / 2) {
            recent.dropFirst(keep - recentBase)
            recentBase = keep
        }
    }
}

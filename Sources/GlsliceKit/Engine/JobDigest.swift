import Foundation

/// What an output records of the job that made it, so `--resume` can tell a
/// finished output from a stale one: SHA-256 of the renderer's version, the
/// source's bytes (and an image set's recipe) and the request's canonical
/// JSON. Not the backend: both write the same bytes (docs/RENDERING.md §5), so
/// `--resume` on any node skips what any node finished.
package enum JobDigest {
    /// The tEXt key under which each output records its job digest.
    package static let textKey = "glslice-job"
    /// Part of every digest: bump when the same job would render different bytes.
    /// 2: one sampling for both backends (a `space` span where no tile fits is no longer filled).
    /// 3: `--compression fast` writes the plan's repeats (other bytes, the same pixels); serve's
    /// ETags are digests, and a strong ETag must change with the bytes.
    /// 4: `fast` chooses each row's tokens on their own, so a GPU can choose them (other bytes).
    /// 5: `fast` writes copy runs as one match (round five) and joins matches across the rows
    /// of a 6 KiB unit (issue 51): other bytes.
    /// 6: `fast`'s matches take a planned part's first bytes up to a whole token, and its
    /// palette rows are filtered None or Up (issue 51): other bytes.
    /// 7: `default` is glslice's own deflate (issue 51), the PNG's bytes other than zlib 6's;
    /// `fast` rows copy the nearest row whose row above is equal too.
    /// 8: `default`'s matcher takes 3-byte matches within 4 KiB, tries more places in the rows
    /// above, walks a match back whole periods of a tile, and stores what codes larger; `small`
    /// keeps the smaller of zlib 9 and that per piece (session 7): other bytes.
    /// 9: `default`'s matcher skips bytes after a run of misses where nothing near agrees (noise),
    /// and its RGB and RGBA rows are filtered Up where that sum falls tenfold: other bytes.
    /// 10: `default` codes a piece of short tokens by zlib 6 (the bound of issue 69), a palette row is
    /// Up only under 2/3 of its sum, and a copy run joins the unit it meets only when shorter than a token:
    /// other bytes (session 17 changed them and left this at 9, so `--resume` kept its older files
    /// and `serve` sent the same strong ETag for other bytes).
    /// 11: `small` also tries a one-piece image's rows filtered as PNG optimizers filter them, by
    /// libdeflate (issue 71): other bytes for `small`.
    /// 12: a run is cut into 258-byte tokens and a literal or two (was 256 + 3): other bytes.
    /// 13: `small` also writes an all-grey palette as grey or grey and alpha, and a small opaque
    /// palette as RGB, where smaller (issue 71): other bytes for `small`.
    /// 14: `default` also codes a piece of many dear tokens by zlib 6, the smaller kept
    /// (`PieceGuard.asksZlib`, issue 69: a screenshot's text, small resampled textures), and its matcher
    /// tries palette and grey rows 2-4 back (a dither's period): other bytes there.
    /// 15: `default` also checks a piece's tokens at its first eighth (`PieceGuard.firstShare`), and a
    /// whole image it gives up is libdeflate 6's, not zlib 6's (issue 69's time bound), and a unit's first
    /// run joins the unit before's last where they meet at one distance (`RepeatDeflater.seamJoins`): other bytes.
    /// 16: filtered rows the plan says are copies only as they are (`RepeatMap.noneRows`) are None and
    /// copy each other; a line blended either way round is one key; a whole image of many dear tokens
    /// asks libdeflate at any size: other bytes.
    /// 17: rows of 16 bytes or fewer are zlib's from the start, unfiltered (`PieceGuard.narrow`), and a whole
    /// image past 512 KiB whose first eighth takes more than a token per 16 bytes is libdeflate's there
    /// (`PieceGuard.largeWholeImageBytesPerToken`; issue 69's time bound): other bytes there.
    /// 18: a piece whose 4 KiB after its first row take more than a token per 4 bytes is zlib's there
    /// (`PieceGuard.early`; issue 69's time bound on ~1-ms images): other bytes there.
    /// 19: the last row of a run of rows equal to the row above is None where a later row with its pixels
    /// is in reach of it and not of the run's first row, which is None too (`RepeatMap.noneRows`): other bytes there.
    static let rendererVersion = "glslice-render/19"

    /// The first 32 hex digits of the job's SHA-256.
    package static func make(sourceKey: SourceKey, request: RenderRequest) -> String {
        var text = Array(rendererVersion.utf8)
        text.reserveCapacity(384)
        text.append(UInt8(ascii: "\n"))
        text += sourceKey.digestText.utf8
        text.append(UInt8(ascii: "\n"))
        text += request.canonicalJSONBytes
        text.append(UInt8(ascii: "\n"))
        return String(sha256Hex(text).prefix(32))
    }

    /// SHA-256 of `data` in lower-case hex (the system's libcrypto, `SHA256`).
    static func sha256Hex(_ data: some ContiguousBytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 15)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

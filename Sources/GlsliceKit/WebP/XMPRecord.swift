import Foundation

/// A (key, value) pair kept in a WebP's XMP packet, as a PNG keeps it in a
/// tEXt chunk: how a batch's WebP output records its job digest for
/// `--resume`. The packet is ordinary XMP (one `rdf:Description` with the key
/// as an attribute in glslice's namespace), so exiftool and webpinfo show it.
enum XMPRecord {
    static let namespace = "https://github.com/glslice/glslice/ns/1.0/"

    /// The XMP packet holding `value` under `key` (both plain ASCII: a key
    /// such as "glslice-job" and hex digits).
    static func packet(key: String, value: String) -> [UInt8] {
        let text = """
        <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">\
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description rdf:about="" xmlns:glslice="\(namespace)" glslice:\(key)="\(value)"/>\
        </rdf:RDF></x:xmpmeta><?xpacket end="r"?>
        """
        return Array(text.utf8)
    }

    /// The value recorded under `key` in `packet`, or nil.
    package static func value(in packet: [UInt8], key: String) -> String? {
        let text = String(decoding: packet, as: UTF8.self)
        guard let start = text.range(of: " glslice:\(key)=\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}

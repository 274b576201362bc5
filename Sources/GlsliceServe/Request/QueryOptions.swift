import Foundation
import GlsliceKit

/// A render URL's query read with the one option schema: the same keys as a
/// manifest line and the same parser as the CLI (`RenderRequest(texts:style:)`),
/// options named as query parameters.
enum QueryOptions {
    /// The keys a render URL may carry: the request's, and `sig`.
    static let knownKeys = RequestOption.allCases.map(\.stringValue).sorted()

    static func request(from items: QueryItems) throws -> RenderRequest {
        var texts: [RequestOption: String] = [:]
        for (name, value) in items.pairs where name != URLSigner.parameter {
            guard let option = RequestOption(rawValue: name) else {
                throw UsageErrors.unknownKey("parameter", name, known: knownKeys)
            }
            guard texts[option] == nil else { throw UsageErrors.givenTwice("parameter", name) }
            texts[option] = value
        }
        return try RenderRequest(texts: texts, style: .queryParameter)
    }
}

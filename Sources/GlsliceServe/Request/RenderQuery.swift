import Foundation
import GlsliceKit

/// A render URL's query read with the one option schema: the same keys as a
/// manifest line and the same messages as the CLI, because it goes through
/// `RenderRequest`'s decoder.
enum RenderQuery {
    /// The keys a render URL may carry: the request's, and `sig`.
    static let knownKeys = RenderRequest.CodingKeys.allCases.map(\.stringValue).sorted()

    static func request(from items: QueryItems) throws -> RenderRequest {
        var fields: [String: String] = [:]
        for (name, value) in items.pairs where name != URLSigner.parameter {
            guard knownKeys.contains(name) else {
                throw GlsliceError(.usage, "unknown parameter '\(name)' (known: \(knownKeys.joined(separator: ", ")))")
            }
            guard fields[name] == nil else { throw GlsliceError(.usage, "parameter '\(name)' is given twice") }
            fields[name] = value
        }
        do {
            return try JSONDecoder().decode(RenderRequest.self, from: try JSONEncoder().encode(fields))
        } catch let error as GlsliceError {
            throw error
        } catch {
            throw GlsliceError(.usage, "cannot read the query: \(error)")
        }
    }
}

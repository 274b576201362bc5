/// Identifies what a source draws, for job digests and GPU texture sharing:
/// the file's SHA-256 and the recipe that turned it into pixels and slicing.
package struct SourceKey: Codable, Hashable, Sendable {
    /// SHA-256 of the PNG file's bytes, lower-case hex.
    var contentHash: String
    var recipe: SourceRecipe

    package init(contentHash: String, recipe: SourceRecipe) {
        self.contentHash = contentHash
        self.recipe = recipe
    }

    /// The text a job digest hashes. A plain PNG is its hash alone and a
    /// nine-patch adds `:nine-patch`, as before the key was typed, so their
    /// digests did not change; an image set adds its recipe as sorted-key JSON.
    var digestText: String {
        switch recipe {
        case .plain: contentHash
        case .ninePatch: "\(contentHash):nine-patch"
        case .imageSet(let recipe): "\(contentHash):imageset:\(recipe.canonicalJSON)"
        }
    }
}

/// A preview page's save (`ImageSetSaver`, `NinePatchSaver`): its file work runs on the render
/// pool, off the event loop, and a full pool refuses it as `busy`.
protocol PreviewSaver: Sendable {
    associatedtype Request: Sendable
    associatedtype Saved: Sendable
    var files: PreviewFiles { get }
    /// Writes what `request` asks, on a render thread.
    func write(_ request: Request) -> Result<Saved, Refusal>
}

extension PreviewSaver {
    func save(_ request: Request) async -> Result<Saved, Refusal> {
        await files.pool.perform { [self] in write(request) } ?? .failure(.busy)
    }

    /// `body`'s answer for the source the page named (`escaped`, beneath the root: else `notFound`);
    /// what it throws is refused as that file's.
    func writing(source escaped: String, _ body: (_ file: String) throws -> Result<Saved, Refusal>) -> Result<Saved, Refusal> {
        guard let file = files.root.file(forEscaped: Substring(escaped)) else { return .failure(.notFound) }
        do {
            return try body(file)
        } catch {
            return .failure(Refusal(error, file: file, root: files.root))
        }
    }
}

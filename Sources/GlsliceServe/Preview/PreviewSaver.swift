/// A preview page's save (`ImageSetSaver`, `NinePatchSaver`): its file work runs on the render
/// pool, off the event loop, and a full pool refuses it as `busy`.
protocol PreviewSaver: Sendable {
    associatedtype Request: Sendable
    associatedtype Saved: Sendable
    var pool: WorkerPool { get }
    /// Writes what `request` asks, on a render thread.
    func write(_ request: Request) -> Result<Saved, Refusal>
}

extension PreviewSaver {
    func save(_ request: Request) async -> Result<Saved, Refusal> {
        await pool.perform { [self] in write(request) } ?? .failure(.busy)
    }
}

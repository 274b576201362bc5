import Logging

/// A swift-log handler that hands each event, with the handler's metadata merged under the
/// event's, to `emit`: the log buffer's line writer (`LogBuffer`), or a test's capture.
struct EventHandler: LogHandler {
    let emit: @Sendable (_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata) -> Void
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { emit(event.level, event.message, metadata.merging(event.metadata ?? [:]) { $1 }) }
}

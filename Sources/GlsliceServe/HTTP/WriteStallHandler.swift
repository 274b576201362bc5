import NIOCore

/// Closes a connection whose client stops reading: when the answer cannot be
/// written (the socket's buffer is full) for `limit`, the connection goes, and
/// with it the answer's memory. Hummingbird's idle timeout covers idle and
/// half-sent requests but not an answer stuck in a full socket.
/// It only watches events: reads and writes pass by untouched.
final class WriteStallHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    private let limit: TimeAmount
    private var stall: Scheduled<Void>?

    init(limit: TimeAmount) { self.limit = limit }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stall?.cancel()
            stall = nil
        } else if stall == nil {
            // From this handler down: a close from the channel's end would wait in PendingWritesHandler
            // for the very writes that are stalled.
            stall = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { context.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stall?.cancel()
        stall = nil
        context.fireChannelInactive()
    }
}

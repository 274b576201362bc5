import NIOCore

/// Counts the writes a connection has handed to NIO that the kernel has not
/// yet taken, and holds a close until they are taken. A response body's
/// writer returns once NIO has queued its bytes, and Hummingbird then closes
/// the connection (Connection: close, or a drain), which dropped what was
/// queued: after SIGTERM a 65 MB answer arrived with 4–5 MB of body
/// (issue 19). A client that stops reading is still closed by
/// `WriteStallHandler`, which closes below this handler; when a drain's
/// time is up, every held close goes through (`AnswerBudget.releaseHeldCloses`).
final class PendingWritesHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    private let answers: AnswerBudget
    private var pending = 0
    private var heldClose: (mode: CloseMode, promise: EventLoopPromise<Void>?)?
    private var cutOff = false

    init(answers: AnswerBudget) { self.answers = answers }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let promise = promise ?? context.eventLoop.makePromise(of: Void.self)
        if pending == 0 { answers.connectionWriting(true) }
        pending += 1
        promise.futureResult.assumeIsolated().whenComplete { result in
            if case .failure = result, !self.cutOff, self.answers.isDraining {
                self.cutOff = true
                self.answers.connectionCutOff()
            }
            self.pending -= 1
            guard self.pending == 0 else { return }
            self.answers.connectionWriting(false)
            if let held = self.heldClose {
                self.heldClose = nil
                self.answers.holdingClose(context.channel, false)
                context.close(mode: held.mode, promise: held.promise)
            }
        }
        context.write(data, promise: promise)
    }

    /// A close (the connection's end, Hummingbird's Connection: close, a drain's
    /// quiesce; often two of them) waits for the queued writes; each later one
    /// joins the one held.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard pending > 0, mode != .input, answers.mayHoldCloses else {
            context.close(mode: mode, promise: promise)
            return
        }
        if let held = heldClose {
            let joined = held.promise ?? context.eventLoop.makePromise(of: Void.self)
            if let promise { joined.futureResult.cascade(to: promise) }
            heldClose = (held.mode == .all || mode == .all ? .all : held.mode, joined)
        } else {
            heldClose = (mode, promise)
            answers.holdingClose(context.channel, true)
        }
    }
}

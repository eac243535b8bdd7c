import APNsCore
import APNsWire
import NIOCore

/// The kinds of reply a request waits for.
enum ReplyKind: Hashable {
    case welcome, registered, resumed, unregistered, pong
}

/// Routes server messages: replies to the request waiting for that kind (in order), notifications
/// to the stream. Runs on the connection's event loop.
final class DeviceClientHandler: ChannelInboundHandler {
    typealias InboundIn = DeviceFrame
    typealias OutboundOut = DeviceFrame

    private let notifications: AsyncThrowingStream<Notification, any Error>.Continuation
    private var waiting: [ReplyKind: [EventLoopPromise<DeviceServerMessage>]] = [:]
    private var context: ChannelHandlerContext?
    private var failure: (any Error)?

    init(notifications: AsyncThrowingStream<Notification, any Error>.Continuation) {
        self.notifications = notifications
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func expect(_ kind: ReplyKind, _ promise: EventLoopPromise<DeviceServerMessage>) {
        if let failure = self.failure {
            promise.fail(failure)
        } else {
            self.waiting[kind, default: []].append(promise)
        }
    }

    func send(_ frame: DeviceFrame) {
        self.context?.writeAndFlush(self.wrapOutboundOut(frame), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message: DeviceServerMessage
        do {
            message = try DeviceServerMessage(frame: self.unwrapInboundIn(data))
        } catch {
            self.fail(error)
            context.close(promise: nil)
            return
        }
        switch message {
        case .notification(let notification): self.notifications.yield(notification)
        case .welcome: self.reply(.welcome, message)
        case .registered: self.reply(.registered, message)
        case .resumed: self.reply(.resumed, message)
        case .unregistered: self.reply(.unregistered, message)
        case .pong: self.reply(.pong, message)
        case .error(let code, let text): self.fail(DeviceClientError.server(code: code, message: text))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.fail(DeviceClientError.closed)
        context.fireChannelInactive()
    }

    private func reply(_ kind: ReplyKind, _ message: DeviceServerMessage) {
        guard var queue = self.waiting[kind], !queue.isEmpty else { return }
        let promise = queue.removeFirst()
        self.waiting[kind] = queue
        promise.succeed(message)
    }

    /// Fails everything waiting and ends the notification stream; the first failure wins. A plain
    /// close ends the stream normally.
    private func fail(_ error: any Error) {
        let first = self.failure ?? error
        self.failure = first
        let waiting = self.waiting.values.flatMap { $0 }
        self.waiting = [:]
        for promise in waiting { promise.fail(first) }
        if (first as? DeviceClientError)?.code == .closed {
            self.notifications.finish()
        } else {
            self.notifications.finish(throwing: first)
        }
    }
}

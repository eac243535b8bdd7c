import APNsCore
import APNsDevice
import APNsWire
import Foundation
import NIOCore

/// Routes server messages: replies to the request waiting for that kind (in order), notifications
/// to the stream. Runs on the connection's event loop.
final class DeviceClientHandler: ChannelInboundHandler {
    typealias InboundIn = DeviceFrame
    typealias OutboundOut = DeviceFrame

    private let notifications: AsyncThrowingStream<APNsCore.Notification, any Error>.Continuation
    private let events: AsyncStream<DeviceEvent>.Continuation
    private var waiting: [ReplyKind: [EventLoopPromise<DeviceServerMessage>]] = [:]
    private var phoneWaiting: [(kind: ReplyKind, subject: String, promise: EventLoopPromise<DeviceServerMessage>)] = []
    private var context: ChannelHandlerContext?
    private var failure: (any Error)?

    init(
        notifications: AsyncThrowingStream<APNsCore.Notification, any Error>.Continuation,
        events: AsyncStream<DeviceEvent>.Continuation
    ) {
        self.notifications = notifications
        self.events = events
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func expect(_ kind: ReplyKind, subject: String = "", _ promise: EventLoopPromise<DeviceServerMessage>) {
        if let failure = self.failure {
            promise.fail(failure)
        } else if kind.isPhone {
            self.phoneWaiting.append((kind, subject, promise))
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
        case .authorization(let topic, _, _, _, _): self.phoneReply(.authorization, topic, message)
        case .app(let topic, let document):
            guard let app = self.decode(AppModel.self, document, context: context) else { return }
            self.events.yield(.app(topic: topic, app))
            self.phoneReply(.app, topic, message)
        case .presented(let uniqueID, let document):
            guard let presentation = self.decode(Presentation.self, document, context: context) else { return }
            self.events.yield(.presented(uniqueID: uniqueID, presentation))
        case .response(let uniqueID, let document):
            guard let response = self.decode(UserResponse.self, document, context: context) else { return }
            self.events.yield(.response(response))
            self.phoneReply(.response, uniqueID, message)
        case .refused(let subject, _, _): self.phoneReply(nil, subject, message)
        case .scheduled(let topic, _): self.phoneReply(.scheduled, topic, message)
        case .pending(let topic, _): self.phoneReply(.pending, topic, message)
        case .cancelled(let topic, _): self.phoneReply(.cancelled, topic, message)
        case .activities(let topic, _): self.phoneReply(.activities, topic, message)
        case .activityToken(let topic, let activityID, let token):
            self.events.yield(.activityToken(topic: topic, activityID: activityID, token: token))
        case .power(let document):
            guard let power = self.decode(DevicePowerState.self, document, context: context) else { return }
            self.events.yield(.power(power))
            self.phoneReply(.power, power.deviceId, message)
        case .webApp: self.phoneReply(.webApp, DeviceServerMessage.webAppSubject, message)
        case .extend(let uniqueID, let document):
            guard let content = self.decode(ExtensionContent.self, document, context: context) else { return }
            self.events.yield(.extend(uniqueID: uniqueID, content))
        case .activity(let topic, let document):
            guard let change = self.decode(ActivityChangeDocument.self, document, context: context) else { return }
            self.events.yield(.activity(topic: topic, change: change.change, reason: change.reason, change.activity))
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

    /// A JSON document the server sent; one that does not decode ends the connection, as a
    /// malformed frame does.
    private func decode<T: Decodable>(_ type: T.Type, _ document: [UInt8], context: ChannelHandlerContext) -> T? {
        do {
            return try JSONDecoder().decode(T.self, from: Data(document))
        } catch {
            self.fail(DeviceClientError(.unexpectedReply, message: "the server sent a \(T.self) that does not decode: \(error)"))
            context.close(promise: nil)
            return nil
        }
    }

    /// A version-2 answer goes to the oldest request waiting for it (`kind` nil: a refusal, which
    /// answers any kind); one nobody asked for is only an event.
    private func phoneReply(_ kind: ReplyKind?, _ subject: String, _ message: DeviceServerMessage) {
        guard let index = self.phoneWaiting.firstIndex(where: { $0.subject == subject && (kind == nil || $0.kind == kind) })
        else { return }
        self.phoneWaiting.remove(at: index).promise.succeed(message)
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
        let waiting = self.waiting.values.flatMap { $0 } + self.phoneWaiting.map(\.promise)
        self.waiting = [:]
        self.phoneWaiting = []
        self.events.finish()
        for promise in waiting { promise.fail(first) }
        if (first as? DeviceClientError)?.code == .closed {
            self.notifications.finish()
        } else {
            self.notifications.finish(throwing: first)
        }
    }
}

import APNsCore
import APNsDevice
import APNsWire
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A device for the emulator: connects over TLS, registers or resumes tokens, and receives
/// notifications (docs/device-protocol.md).
public final class DeviceClient: Sendable {
    /// Notifications as they arrive. The stream ends when the connection closes, with an error
    /// if the server sent one.
    public let notifications: AsyncThrowingStream<APNsCore.Notification, any Error>
    /// What the phone did (presentations, responses, app changes), for a version-2 session;
    /// ends with the connection.
    public let events: AsyncStream<DeviceEvent>
    /// The protocol version the session speaks.
    public let version: UInt8
    /// The device id this connection said hello with.
    public let deviceID: String
    let channel: any Channel
    private let handler: NIOLoopBound<DeviceClientHandler>

    /// Connects, says hello and waits for the welcome.
    /// - Parameters:
    ///   - host: the emulator's host (serve's `--host`).
    ///   - port: its device port (serve's `--device-port`, 5223 by default).
    ///   - caPath: the CA to trust (the emulator's `certs/ca.pem`).
    ///   - deviceID: the device's own id, which the admin API, the journal and the inbox show.
    ///   - version: the protocol version to speak; the newest by default (events, Live
    ///     Activities and service extensions need 2, 3 and 4).
    ///   - serverName: the name the emulator's certificate is checked against.
    ///   - adminToken: the emulator's admin token, which an emulator started with
    ///     `--require-device-token` asks every device for; nil sends none.
    ///   - group: the event loops the connection runs on.
    public static func connect(
        host: String,
        port: Int,
        caPath: String,
        deviceID: String,
        version: UInt8 = DeviceProtocol.version,
        serverName: String = "localhost",
        adminToken: String? = nil,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> DeviceClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caPath))
        let sslContext = try NIOSSLContext(configuration: tls)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: APNsCore.Notification.self, throwing: (any Error).self)
        let (events, eventContinuation) = AsyncStream.makeStream(of: DeviceEvent.self)
        let channel = try await ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: serverName))
                    try pipeline.addHandler(ByteToMessageHandler(DeviceFrameDecoder()))
                    try pipeline.addHandler(MessageToByteHandler(DeviceFrameEncoder()))
                    try pipeline.addHandler(DeviceClientHandler(notifications: continuation, events: eventContinuation))
                    return channel
                }
            }
        let handler = try await channel.eventLoop.submit {
            NIOLoopBound(
                try channel.pipeline.syncOperations.handler(type: DeviceClientHandler.self), eventLoop: channel.eventLoop)
        }.get()
        let client = DeviceClient(
            channel: channel, handler: handler, notifications: stream, events: events, version: version, deviceID: deviceID)
        let reply = try await client.request(
            .hello(version: version, deviceID: deviceID, credential: adminToken), expecting: .welcome)
        guard case .welcome = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return client
    }

    private init(
        channel: any Channel,
        handler: NIOLoopBound<DeviceClientHandler>,
        notifications: AsyncThrowingStream<APNsCore.Notification, any Error>,
        events: AsyncStream<DeviceEvent>,
        version: UInt8,
        deviceID: String
    ) {
        self.deviceID = deviceID
        self.channel = channel
        self.handler = handler
        self.notifications = notifications
        self.events = events
        self.version = version
    }

    /// Asks for a new token for an app; it is held by this connection from now on.
    ///
    /// - Parameters:
    ///   - topic: the app's bundle id.
    ///   - environment: the app build's: `.development` (a debug build run from Xcode)
    ///     or `.production` (TestFlight, the App Store, ad hoc); nil (the default) for the
    ///     emulator's `serve --environment`, development unless it says otherwise. The token is
    ///     valid at that environment's endpoint only; a push to the other answers 400 BadDeviceToken.
    public func register(topic: String, environment: APNsEnvironment? = nil) async throws -> DeviceToken {
        let reply = try await self.request(.register(topic: topic, environment: environment), expecting: .registered)
        guard case .registered(_, let token) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return token
    }

    /// Presents known tokens after (re)connecting; queued notifications follow.
    public func resume(_ tokens: [DeviceToken]) async throws -> [ResumeResult] {
        let reply = try await self.request(.resume(tokens: tokens), expecting: .resumed)
        guard case .resumed(let results) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return results
    }

    /// The app was removed: its token stops being valid. Returns when (ms since the UNIX epoch).
    public func unregister(topic: String) async throws -> Int64 {
        let reply = try await self.request(.unregister(topic: topic), expecting: .unregistered)
        guard case .unregistered(_, _, let timestamp) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return timestamp
    }

    /// Acknowledges a notification, which then leaves its queue.
    public func acknowledge(_ uniqueID: String) async throws {
        try await self.channel.writeAndFlush(DeviceClientMessage.ack(uniqueID: uniqueID).frame(allocator: self.channel.allocator))
    }

    /// A keepalive round trip.
    public func ping() async throws {
        let opaque = UInt64.random(in: 0...UInt64.max)
        let reply = try await self.request(.ping(opaque), expecting: .pong)
        guard case .pong(opaque) = reply else { throw DeviceClientError.unexpectedReply(reply) }
    }

    /// Closes the connection; unacknowledged notifications stay queued on the server.
    public func close() async throws {
        do {
            try await self.channel.close()
        } catch ChannelError.alreadyClosed {
            // The server closed it first: nothing left to do.
        }
    }

    func request(
        _ message: DeviceClientMessage, expecting kind: ReplyKind, subject: String = ""
    ) async throws -> DeviceServerMessage {
        let promise = self.channel.eventLoop.makePromise(of: DeviceServerMessage.self)
        let handler = self.handler
        let frame = message.frame(allocator: self.channel.allocator)
        self.channel.eventLoop.execute {
            handler.value.expect(kind, subject: subject, promise)
            handler.value.send(frame)
        }
        let reply = try await promise.futureResult.get()
        if case .refused(_, let status, let text) = reply { throw DeviceClientError.declined(status: status, message: text) }
        return reply
    }
}

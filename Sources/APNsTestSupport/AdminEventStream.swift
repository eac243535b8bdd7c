import APNsCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A client of the admin API's Server-Sent Events stream that keeps every event it receives.
public final class AdminEventStream: Sendable {
    /// One event: its name and its data, a JSON object.
    public struct Event: Sendable {
        public var kind: String
        /// The `data:` line as received.
        public var json: String

        /// The data parsed.
        public var data: [String: Any] {
            JSONValue.foundationObject(Array(self.json.utf8)) as? [String: Any] ?? [:]
        }
    }

    private let channel: any Channel
    private let reader: Reader

    private init(channel: any Channel, reader: Reader) {
        self.channel = channel
        self.reader = reader
    }

    /// Opens `path` (e.g. `/api/v1/events?token=...`) and returns once the response head arrived.
    public static func open(host: String, port: Int, path: String = "/api/v1/events") async throws -> AdminEventStream {
        let reader = Reader()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(reader)
                }
            }
            .connect(host: host, port: port)
            .get()
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "host", value: "\(host):\(port)")
        head.headers.add(name: "accept", value: "text/event-stream")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil))
        let stream = AdminEventStream(channel: channel, reader: reader)
        let deadline = ContinuousClock.now + .seconds(10)
        while stream.reader.state.withLock({ $0.text.isEmpty }) {
            guard ContinuousClock.now < deadline else { throw TestClientError.timedOut }
            try await Task.sleep(for: .milliseconds(5))
        }
        return stream
    }

    /// The response's status and content type.
    public var status: Int { self.reader.state.withLock { $0.status } }
    public var contentType: String { self.reader.state.withLock { $0.contentType } }

    /// The events received so far, in order (comments skipped).
    public var events: [Event] {
        let text = self.reader.state.withLock { $0.text }
        var events: [Event] = []
        for block in text.components(separatedBy: "\n\n") {
            var kind: String?
            var data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { kind = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data += line.dropFirst(6) }
            }
            guard let kind, case .object? = JSONValue.parse(Array(data.utf8)) else { continue }
            events.append(Event(kind: kind, json: data))
        }
        return events
    }

    /// Waits (up to `timeout`) until at least `count` events (of `kind`, when given) arrived;
    /// returns them all.
    public func waitForEvents(_ count: Int, kind: String? = nil, timeout: Duration = .seconds(10)) async throws -> [Event] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let events = self.events.filter { kind == nil || $0.kind == kind }
            if events.count >= count { return events }
            guard ContinuousClock.now < deadline else {
                throw TestClientError.unexpected("\(events.count) events, waited for \(count): \(events.map(\.kind))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    public func close() async throws {
        try await self.channel.close()
    }

    final class Reader: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPClientResponsePart
        let state = Mutex((status: 0, contentType: "", text: ""))

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let head):
                self.state.withLock {
                    $0.status = Int(head.status.code)
                    $0.contentType = head.headers["content-type"].first ?? ""
                }
            case .body(let buffer):
                self.state.withLock { $0.text += String(buffer: buffer) }
            case .end:
                break
            }
        }
    }
}

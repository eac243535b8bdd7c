import APNsAdminClient
import APNsCore
import Foundation
import NIOCore
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
    private let received: Received

    /// What the stream has brought; written on the connection's loop, read by the test.
    final class Received: Sendable {
        let contentType = Mutex("")
        let events = Mutex<[Event]>([])
    }

    private init(channel: any Channel, received: Received) {
        self.channel = channel
        self.received = received
    }

    /// Opens `path` (e.g. `/api/v1/events?token=...`) and returns once it is answered 200 (the
    /// emulator then sends every later event); throws, saying why, when it is not.
    /// `token`: the admin token; `headers`: more (a browser's `Origin`).
    public static func open(
        host: String, port: Int, path: String = "/api/v1/events", token: String? = nil, headers: [(name: String, value: String)] = []
    ) async throws -> AdminEventStream {
        let received = Received()
        let client = AdminHTTPClient(connectTimeout: AdminTestClient.answerTimeout, token: token)
        // A promise keeps its first result: the start, or why the stream never started.
        let started = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
        let channel = try await client.stream(
            "\(host):\(port)", path: path, headers: headers,
            onStart: { contentType in
                received.contentType.withLock { $0 = contentType }
                started.succeed(())
            },
            onEvent: { text in
                let (name, data) = ServerSentEvents.fields(of: text)
                guard let name, case .object? = JSONValue.parse(Array(data.utf8)) else { return }
                received.events.withLock { $0.append(Event(kind: name, json: data)) }
            },
            onEnd: { why in started.fail(TestClientError.unexpected("the event stream \(path) ended: \(why)")) }
        ).get()
        try await started.futureResult.get()
        return AdminEventStream(channel: channel, received: received)
    }

    /// The response's status (a stream that opened was answered 200) and content type.
    public var status: Int { 200 }
    public var contentType: String { self.received.contentType.withLock { $0 } }

    /// The events received so far, in order (comments skipped).
    public var events: [Event] { self.received.events.withLock { $0 } }

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
}

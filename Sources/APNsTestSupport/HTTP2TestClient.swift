import APNsCore
import APNsProviderClient
import Foundation
import NIOCore
import NIOHTTP2
import NIOSSL
import Synchronization

/// The end-to-end tests' HTTP/2 provider client over real TLS: `ProviderClient`, with what a
/// test watches on stream 0 (SETTINGS, GOAWAY, WINDOW_UPDATE, a reset) and answers as tests read them.
public final class HTTP2TestClient: Sendable {
    /// One response: status, headers, body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? { self.headers.first { $0.name == name }?.value }

        /// The `reason` of a JSON error body.
        public var reason: String? { self.json?["reason"] as? String }

        /// The `timestamp` of a JSON error body.
        public var timestamp: Int64? { (self.json?["timestamp"] as? NSNumber)?.int64Value }

        public var json: [String: Any]? {
            JSONValue.foundationObject(self.body) as? [String: Any]
        }
    }

    /// What the server said on stream 0.
    public struct ConnectionEvents: Sendable {
        public var settings: [HTTP2Setting] = []
        public var goAway: (lastStreamID: HTTP2StreamID, errorCode: HTTP2ErrorCode, debugData: String)?
        public var windowIncrements: Int = 0
        /// The connection ended abruptly: a TCP reset (ECONNRESET), or TCP closed without TLS's
        /// close_notify (which side of the race a reset lands on depends on timing).
        public var resetByPeer = false
        /// The connection is closed.
        public var closed = false
    }

    /// The provider client it is built on.
    public let client: ProviderClient
    private let observer: ConnectionObserver
    public var channel: any Channel { self.client.channel }

    /// Connects with ALPN h2, verifying the server certificate against `caPath` and presenting
    /// `identity` if given.
    public static func connect(
        host: String,
        port: Int,
        caPath: String,
        serverName: String = "localhost",
        identity: ClientIdentity? = nil
    ) async throws -> HTTP2TestClient {
        guard let ca = FileManager.default.contents(atPath: caPath) else {
            throw TestClientError.unexpected("no CA at \(caPath)")
        }
        let observer = ConnectionObserver()
        let client = try await ProviderClient.connect(
            host: host, port: port, trust: .certificates(Array(ca)), serverName: serverName, identity: try identity?.pem(),
            streamWindow: 1 << 20, observer: observer
        )
        return HTTP2TestClient(client: client, observer: observer)
    }

    private init(client: ProviderClient, observer: ConnectionObserver) {
        self.client = client
        self.observer = observer
    }

    /// Sends one request on a new stream and waits for its response. `headers` are regular headers
    /// (names lower case), sent in order, so duplicates are possible; `body` nil sends HEADERS with
    /// END_STREAM, unless `endStream` is false (a request that never finishes).
    public func send(
        method: String = "POST",
        path: String,
        headers: [(String, String)] = [],
        body: [UInt8]? = nil,
        endStream: Bool = true
    ) async throws -> Response {
        try await self.begin(method: method, path: path, headers: headers, body: body, endStream: endStream).get()
    }

    /// Sends one request on a new stream; returns once its frames are written to the connection
    /// (so later requests follow it on the wire), with the response still to come.
    public func begin(
        method: String = "POST",
        path: String,
        headers: [(String, String)] = [],
        body: [UInt8]? = nil,
        endStream: Bool = true
    ) async throws -> EventLoopFuture<Response> {
        try await self.client.begin(method: method, path: path, headers: headers, body: body, endStream: endStream).map {
            answer in
            Response(status: answer.status, headers: answer.headers, body: answer.body)
        }
    }

    /// A push to `/3/device/<token>` with a JSON body.
    public func push(
        token: String, headers: [(String, String)] = [], json: String = #"{"aps":{"alert":"hello"}}"#
    ) async throws -> Response {
        try await self.send(path: "/3/device/\(token)", headers: headers, body: Array(json.utf8))
    }

    /// A push as a provider sends one: `authorization`, `apns-topic`, `apns-push-type` and
    /// `apns-priority` when given, then `headers` (the tests' one push helper).
    public func push(
        token: String, topic: String?, pushType: String? = nil, priority: Int? = nil, authorization: String? = nil,
        headers: [(String, String)] = [], json: String = #"{"aps":{"alert":"hello"}}"#
    ) async throws -> Response {
        var fields: [(String, String)] = []
        if let authorization { fields.append(("authorization", authorization)) }
        if let topic { fields.append(("apns-topic", topic)) }
        if let pushType { fields.append(("apns-push-type", pushType)) }
        if let priority { fields.append(("apns-priority", String(priority))) }
        return try await self.push(token: token, headers: fields + headers, json: json)
    }

    /// A push that must be accepted: its `apns-unique-id`; throws with APNs' answer when it is not.
    public func accepted(
        token: String, topic: String?, pushType: String? = nil, priority: Int? = nil, headers: [(String, String)] = [],
        json: String = #"{"aps":{"alert":"hello"}}"#
    ) async throws -> String {
        let answer = try await self.push(
            token: token, topic: topic, pushType: pushType, priority: priority, headers: headers, json: json)
        guard answer.status == 200, let uniqueID = answer.header("apns-unique-id") else {
            throw TestClientError.unexpected(
                "the push was answered \(answer.status) \(answer.reason ?? ""), not 200 with an apns-unique-id")
        }
        return uniqueID
    }

    /// SETTINGS, GOAWAY and WINDOW_UPDATEs the server has sent on stream 0 so far.
    public var events: ConnectionEvents { self.observer.events.withLock { $0 } }

    /// Waits (up to `timeout`) until `condition` holds for the connection events.
    public func waitForEvents(
        timeout: Duration = .seconds(10), _ condition: @Sendable (ConnectionEvents) -> Bool
    ) async throws -> ConnectionEvents {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let events = self.events
            if condition(events) { return events }
            try await self.channel.eventLoop.scheduleTask(in: .milliseconds(5)) {}.futureResult.get()
        }
        throw TestClientError.timedOut
    }

    public func close() async throws {
        try await self.client.close()
    }
}

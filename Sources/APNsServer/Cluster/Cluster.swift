import APNsAdminClient
import APNsCore
import Logging
import NIOCore

/// The other shards of a cluster, as this one reaches them: their admin APIs (`--cluster-peers`,
/// every shard's address in shard order, this one's included). Lists, waits, event streams and
/// metrics merge what every shard answers and say which did; per-token and per-notification
/// routes go to the shard that owns the token or made the notification; broadcast channels are
/// copied to every shard, so each applies a broadcast to its own subscribers.
public struct Cluster: Sendable {
    public let shard: Shard
    /// Every shard's admin address (host:port), by shard index.
    public let peers: [String]
    let client: AdminHTTPClient
    let logger: Logger
    /// How long a merged answer waits for a shard before saying it did not answer.
    static let timeout = TimeAmount.seconds(3)

    /// nil unless this emulator is a shard and knows its peers.
    /// `token`: the admin token every shard shares, sent with each request to a peer.
    public init?(shard: Shard?, peers: [String], token: String? = nil, group: any EventLoopGroup, logger: Logger) {
        guard let shard, peers.count == shard.count, shard.count > 1 else { return nil }
        self.shard = shard
        self.peers = peers
        self.client = AdminHTTPClient(group: group, token: token)
        self.logger = logger
    }

    /// The shard a fault rule id (`s<K>-fault-<n>`) names, if it names one of `count`.
    static func shard(ofFaultID id: String, count: Int) -> Int? {
        guard id.hasPrefix("s"), let dash = id.firstIndex(of: "-"), let index = Int(id[id.index(after: id.startIndex)..<dash]),
            (0..<count).contains(index)
        else { return nil }
        return index
    }

    /// The shards other than this one, with their addresses.
    var others: [(index: Int, address: String)] {
        self.peers.enumerated().filter { $0.offset != self.shard.index }.map { ($0.offset, $0.element) }
    }

    /// One shard's answer to a request every shard was asked, or why there is none.
    struct Reply: Sendable {
        var shard: Int
        var address: String
        var answer: AdminHTTPClient.Answer?
        var error: String?
    }

    /// `path` with `query`, asking a shard for its own answer (`scope=local`).
    static func local(_ path: String, query: String) -> String {
        path + "?" + (query.isEmpty ? "" : query + "&") + "scope=local"
    }

    /// Asks every other shard `path` (with `scope=local`, so it answers for itself); the replies
    /// come in shard order, each with its answer or the reason there is none. Never fails.
    func ask(
        _ method: String = "GET", _ path: String, query: String, body: [UInt8] = [], timeout: TimeAmount = Cluster.timeout,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<[Reply]> {
        let asked = self.others.map {
            self.forward(method, path, query: query, body: body, to: $0.index, timeout: timeout, on: eventLoop)
        }
        return EventLoopFuture.whenAllSucceed(asked, on: eventLoop)
    }

    /// Sends one request to shard `index` as it came (with `scope=local`): its answer, or why
    /// there is none. Never fails.
    func forward(
        _ method: String, _ path: String, query: String, body: [UInt8], to index: Int, timeout: TimeAmount = .seconds(310),
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<Reply> {
        let address = self.peers[index]
        return self.client.request(address, method: method, path: Self.local(path, query: query), body: body, timeout: timeout)
            .hop(to: eventLoop)
            .map { Reply(shard: index, address: address, answer: $0) }
            .recover { Reply(shard: index, address: address, error: "\($0)") }
    }

    /// `"shards": {"answered": [...], "unanswered": [{"shard", "address", "error"}]}`: which shards
    /// a merged answer holds (this one always), and why any other is missing.
    static func writeShards(_ answered: [Int], _ unanswered: [Reply], into writer: inout JSONWriter) {
        writer.object { members in
            members.member("answered") { $0.array(answered.sorted()) { $0.number($1) } }
            members.member("unanswered") { writer in
                writer.array(unanswered) { writer, reply in
                    writer.object { fields in
                        fields.member("shard") { $0.number(reply.shard) }
                        fields.member("address") { $0.string(reply.address) }
                        fields.member("error") { $0.string(reply.error ?? "answered \(reply.answer?.status ?? 0)") }
                    }
                }
            }
        }
    }
}

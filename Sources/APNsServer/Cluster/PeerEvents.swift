import APNsCore
import NIOCore

/// The other shards' event streams joined to one client's stream (`GET /api/v1/events` on a
/// shard of a cluster). An event `shards` says which shards the stream holds: once every peer has
/// been reached or not, and again whenever that changes. A peer's stream that ends (the shard
/// stopped, restarted) is opened again every 2 s until the client leaves.
///
/// Confined to the client connection's event loop.
final class PeerEvents {
    private let cluster: Cluster
    private let path: String
    private let loop: any EventLoop
    /// Writes one event to the client.
    private let write: (String) -> Void
    private var answered: Set<Int>
    private var unanswered: [Int: Cluster.Reply] = [:]
    /// Peers not yet reached or refused once: nothing is announced until they all have been.
    private var pending: Set<Int>
    private var channels: [Int: any Channel] = [:]
    private var announced: (Set<Int>, Set<Int>)?
    private var stopped = false
    static let retry = TimeAmount.seconds(2)

    init(cluster: Cluster, query: String, loop: any EventLoop, write: @escaping (String) -> Void) {
        self.cluster = cluster
        self.path = Cluster.local("/api/v1/events", query: query)
        self.loop = loop
        self.write = write
        self.answered = [cluster.shard.index]
        self.pending = Set(cluster.others.map(\.index))
    }

    func start() {
        for peer in self.cluster.others { self.open(peer.index, peer.address) }
    }

    /// Closes every peer stream; nothing is opened again.
    func stop() {
        self.stopped = true
        for channel in self.channels.values { channel.close(promise: nil) }
        self.channels = [:]
    }

    private func open(_ index: Int, _ address: String) {
        guard !self.stopped else { return }
        let (bound, loop) = (NIOLoopBound(self, eventLoop: self.loop), self.loop)
        self.cluster.client.stream(
            address, path: self.path,
            onStart: { _ in loop.execute { bound.value.reached(index) } },
            onEvent: { text in loop.execute { bound.value.relay(text) } },
            onEnd: { why in loop.execute { bound.value.lost(index, address, why) } }
        ).hop(to: loop).assumeIsolated().whenSuccess { channel in
            if self.stopped { channel.close(promise: nil) } else { self.channels[index] = channel }
        }
    }

    private func reached(_ index: Int) {
        self.pending.remove(index)
        self.unanswered[index] = nil
        self.answered.insert(index)
        self.announce()
    }

    private func relay(_ text: String) {
        if !self.stopped { self.write(text) }
    }

    private func lost(_ index: Int, _ address: String, _ why: String) {
        guard !self.stopped else { return }
        self.channels[index] = nil
        self.pending.remove(index)
        self.answered.remove(index)
        self.unanswered[index] = Cluster.Reply(shard: index, address: address, error: why)
        self.announce()
        let bound = NIOLoopBound(self, eventLoop: self.loop)
        self.loop.scheduleTask(in: Self.retry) { bound.value.open(index, address) }
    }

    /// Writes `shards` when every peer has been tried and the shards held differ from the last said.
    private func announce() {
        let now = (self.answered, Set(self.unanswered.keys))
        guard self.pending.isEmpty, !self.stopped, self.announced.map({ $0 != now }) ?? true else { return }
        self.announced = now
        var writer = JSONWriter()
        Cluster.writeShards(Array(self.answered), self.unanswered.values.sorted { $0.shard < $1.shard }, into: &writer)
        self.write("event: shards\ndata: \(String(decoding: writer.bytes, as: UTF8.self))\n\n")
    }
}

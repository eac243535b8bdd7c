import APNsCore
import APNsDevice
import APNsInspection
import Foundation
import NIOCore

/// A broadcast channel as the shard that owns its bundle has it after a change, sent to every
/// other shard (`POST /api/v1/cluster/channels`): with a broadcast, each applies it to its own
/// subscribers and answers what they made of it.
struct ChannelReplica: Codable, Sendable {
    var channel: BroadcastChannel
    var broadcast: Broadcast?

    struct Broadcast: Codable, Sendable {
        var uniqueID: String
        var payload: String
        var priority: Int
    }

    /// What a shard's subscribers made of a broadcast.
    struct Answer: Codable, Sendable {
        var outcomes: [BroadcastActivityOutcome]
    }
}

extension Cluster {
    /// Sends `replica` to every other shard and waits for them (a bounded time): the outcomes
    /// their subscribers had, and the shards that did not take it.
    func replicate(
        _ replica: ChannelReplica, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(outcomes: [BroadcastActivityOutcome], missed: [Reply])> {
        let body = (try? JSONEncoder().encode(replica)).map { Array($0) } ?? []
        return self.ask("POST", "/api/v1/cluster/channels", query: "", body: body, on: eventLoop).map { replies in
            var outcomes: [BroadcastActivityOutcome] = []
            var missed: [Reply] = []
            for reply in replies {
                guard let answer = reply.answer, answer.status == 200,
                    let taken = try? JSONDecoder().decode(ChannelReplica.Answer.self, from: Data(answer.body))
                else {
                    missed.append(reply)
                    continue
                }
                outcomes += taken.outcomes
            }
            if !missed.isEmpty {
                self.logger.warning(
                    "a broadcast channel's change did not reach every shard",
                    metadata: [
                        "apns.channel": "\(replica.channel.id)",
                        "cluster.missed": "\(missed.map { "\($0.shard): \($0.error ?? "answered \($0.answer?.status ?? 0)")" })",
                    ])
            }
            return (outcomes, missed)
        }
    }
}

extension Cluster {
    /// Takes every channel the other shards own as they have it now, deleted ones too: what
    /// this shard missed while it was down. A shard not up yet is asked again every 2 s, for a
    /// minute. On `eventLoop`.
    func catchUp(_ channels: BroadcastChannels, on eventLoop: any EventLoop, run: ChannelCatchUp, attempt: Int = 0) {
        guard !run.isStopped else { return }
        let missing = self.others.map { peer in
            self.client.request(peer.address, path: Cluster.local("/api/v1/cluster/channels", query: "")).map { answer -> Bool in
                guard answer.status == 200,
                    let owned = try? JSONDecoder().decode([BroadcastChannel].self, from: Data(answer.body))
                else { return false }
                let known = channels.read { book in owned.filter { book.channels[$0.id] != $0 } }
                for channel in known where Shard.index(ofBundle: channel.bundleID, count: self.shard.count) == peer.index {
                    _ = channels.adopt(channel, on: eventLoop) { _ in }
                }
                return true
            }.recover { _ in false }
        }
        EventLoopFuture.whenAllSucceed(missing, on: eventLoop).whenSuccess { answered in
            guard answered.contains(false), attempt < 30 else { return }
            run.schedule(in: .seconds(2), on: eventLoop) { self.catchUp(channels, on: eventLoop, run: run, attempt: attempt + 1) }
        }
    }
}

import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// Each operation of the channel management and broadcast APIs.
extension ChannelRequests {
    func perform(
        _ request: PushRequest, route: BroadcastRoute, record: BroadcastRecord, on eventLoop: any EventLoop
    ) -> EventLoopFuture<ChannelAnswer> {
        let requestID = record.requestID ?? ""
        let channels = self.channels
        func refuse(_ reason: Reason, _ detail: String? = nil) -> EventLoopFuture<ChannelAnswer> {
            eventLoop.makeSucceededFuture(
                Self.refusal(Rejection(reason: reason, apnsID: requestID, detail: detail ?? reason.explanation), record: record))
        }
        // A change is answered once every shard of a cluster has the channel as it is now.
        let cluster = self.cluster
        func settled(
            _ future: EventLoopFuture<Result<BroadcastChannel, Reason>>,
            _ success: @escaping @Sendable (BroadcastChannel) -> ChannelAnswer
        ) -> EventLoopFuture<ChannelAnswer> {
            future.flatMap { result in
                switch result {
                case .success(let channel):
                    guard let cluster else { return eventLoop.makeSucceededFuture(success(channel)) }
                    return cluster.replicate(ChannelReplica(channel: channel), on: eventLoop).map { _ in success(channel) }
                case .failure(let reason):
                    return eventLoop.makeSucceededFuture(
                        Self.refusal(Rejection(reason: reason, apnsID: requestID, detail: reason.explanation), record: record))
                }
            }
        }
        switch Self.operation(route.kind, method: request.method ?? "") {
        case "create":
            switch ChannelConfiguration.parse(request.body) {
            case .failure(let rejection): return refuse(rejection.reason, rejection.detail)
            case .success((let configuration, let warnings)):
                return settled(channels.create(route.bundleID, configuration, in: self.environment, on: eventLoop)) { channel in
                    ChannelAnswer(status: 201, requestID: requestID, channelID: channel.id, warnings: warnings, record: record)
                }
            }
        case "read", "delete":
            let id: String
            switch ChannelID.validate(request.channelID) {
            case .success(let valid): id = valid
            case .failure(let reason): return refuse(reason)
            }
            if request.method == "DELETE" {
                return settled(channels.delete(id, of: route.bundleID, in: self.environment, on: eventLoop)) { channel in
                    ChannelAnswer(status: 204, requestID: requestID, channelID: channel.id, record: record)
                }
            }
            return eventLoop.makeSucceededFuture(self.read(id, bundleID: route.bundleID, requestID: requestID, record: record))
        case "list":
            let (enabled, ids) = channels.read { [environment] in
                ($0.isEnabled(route.bundleID), $0.live(route.bundleID, in: environment).map(\.id))
            }
            guard enabled else { return refuse(.featureNotEnabled) }
            var writer = JSONWriter()
            writer.object { $0.member("channels") { $0.array(ids) { $0.string($1) } } }
            return eventLoop.makeSucceededFuture(
                ChannelAnswer(status: 200, requestID: requestID, body: writer.bytes, record: record))
        default:
            return self.publish(request, bundleID: route.bundleID, record: record, on: eventLoop)
        }
    }

    /// A channel's configuration, as Apple's read answers it.
    private func read(_ id: String, bundleID: String, requestID: String, record: BroadcastRecord) -> ChannelAnswer {
        let environment = self.environment
        switch self.channels.read({ $0.channel(id, of: bundleID, in: environment) }) {
        case .failure(let reason):
            return Self.refusal(Rejection(reason: reason, apnsID: requestID, detail: reason.explanation), record: record)
        case .success(let channel):
            var writer = JSONWriter()
            writer.object { members in
                members.member("message-storage-policy") { $0.number(channel.storagePolicy) }
                members.member("push-type") { $0.string(channel.pushType) }
            }
            return ChannelAnswer(status: 200, requestID: requestID, channelID: id, body: writer.bytes, record: record)
        }
    }

    /// A broadcast: checked, taken by its channel (stored with policy 1), applied to every
    /// subscribed activity, answered 200 once all of it is durable.
    private func publish(
        _ request: PushRequest, bundleID: String, record: BroadcastRecord, on eventLoop: any EventLoop
    ) -> EventLoopFuture<ChannelAnswer> {
        let requestID = record.requestID ?? ""
        let push: BroadcastPush
        switch BroadcastValidator.publish(request, requestID: requestID) {
        case .success(let valid): push = valid
        case .failure(let rejection): return eventLoop.makeSucceededFuture(Self.refusal(rejection, record: record))
        }
        let (uniqueID, activities, metrics) = (record.id, self.activities, self.inspection.metrics.broadcast)
        let development = self.environment == .development
        var deliveries: [LiveActivities.BroadcastDelivery] = []
        var news = LiveActivities.DeviceNews()
        let taken = self.channels.publish(push, to: bundleID, uniqueID: uniqueID, in: self.environment, on: eventLoop) {
            channel in
            deliveries = activities.fanOut(push, channel: channel, uniqueID: uniqueID, news: &news, on: eventLoop)
        }
        let (reached, told) = (deliveries, news)
        // The devices hear of it once the answer is written (``ChannelAnswer/afterAnswer``), or
        // at once if the commit failed: the activities changed in memory either way.
        taken.whenFailure { _ in eventLoop.execute { activities.tell(told) } }
        let cluster = self.cluster
        return taken.flatMap { result in
            switch result {
            case .failure(let reason):
                return eventLoop.makeSucceededFuture(
                    Self.refusal(Rejection(reason: reason, apnsID: requestID, detail: reason.explanation), record: record))
            case .success(let channel):
                var taken = record
                taken.stored = channel.message?.uniqueID == uniqueID
                // What the subscribed activities' ActivityKit ignores, said as a push's lint says it.
                taken.warnings = LiveActivityLint.broadcastWarnings(request).map(\.description)
                taken.outcomes = reached.map { BroadcastActivityOutcome(deviceID: $0.deviceID, $0.outcome) }
                metrics.published(delivered: reached.filter { $0.outcome.outcome == .applied }.count)
                // Every other shard applies it to its own subscribers; their outcomes join this shard's.
                let elsewhere =
                    cluster.map {
                        $0.replicate(
                            ChannelReplica(
                                channel: channel,
                                broadcast: .init(
                                    uniqueID: uniqueID, payload: String(decoding: push.payload, as: UTF8.self),
                                    priority: Int(push.priority.rawValue))), on: eventLoop)
                    } ?? eventLoop.makeSucceededFuture(([], []))
                let local = taken
                return elsewhere.map { others in
                    var record = local
                    record.outcomes += others.outcomes
                    record.fanOut = record.outcomes.count
                    if !others.missed.isEmpty {
                        record.detail =
                            "not applied on shard(s) \(others.missed.map { String($0.shard) }.joined(separator: ", ")): they did not answer"
                    }
                    return ChannelAnswer(
                        status: 200, requestID: requestID, channelID: push.channelID, uniqueID: development ? uniqueID : nil,
                        warnings: record.warnings, record: record, afterAnswer: { activities.tell(told) })
                }
            }
        }
    }
}

/// A broadcast as one app applied it: everything ``AppModel/receiveBroadcast(_:channelID:uniqueID:now:limits:only:)``
/// takes, so that applying it again to the app as it was gives the app as it is. A broadcast
/// changes every subscribed activity of every app at once; writing each app whole (its activities
/// with up to 100 history entries each) cost a fan-out to 10,000 activities half a second, where
/// this is a few hundred bytes an app.
public struct AppBroadcastDelta: Hashable, Sendable, Codable {
    public var uniqueID: String
    public var channelID: String
    /// The broadcast's JSON payload, as the provider sent it.
    public var payload: String
    public var priority: Int
    /// When it was applied, on the emulator's clock.
    public var now: Int64
    public var limits: ActivityLimits
    /// The one activity it went to (a channel's stored message handed to a new subscriber), or
    /// nil for every subscriber.
    public var only: String?

    public init(
        uniqueID: String, channelID: String, payload: String, priority: Int, now: Int64, limits: ActivityLimits,
        only: String? = nil
    ) {
        (self.uniqueID, self.channelID, self.payload, self.priority) = (uniqueID, channelID, payload, priority)
        (self.now, self.limits, self.only) = (now, limits, only)
    }

    /// Applies it to `app`, as it was applied the first time; the report and each activity's outcome.
    @discardableResult
    public func apply(to app: inout AppModel) -> (report: ActivityReport, outcomes: [BroadcastOutcome]) {
        let push = ActivityPush(payload: Array(self.payload.utf8), priority: self.priority)
        return app.receiveBroadcast(
            push, channelID: self.channelID, uniqueID: self.uniqueID, now: self.now, limits: self.limits, only: self.only)
    }
}

import APNsCore
import APNsDevice

/// One change for the writer to make; many are committed together.
public enum StoreOperation: Sendable {
    /// A notification the provider API accepted.
    case accept(Notification)
    /// The same, for a token whose device was connected at acceptance: a notification that may
    /// not be stored (expiration 0 or past) is then logged as delivered and handed over once.
    case acceptForConnectedDevice(Notification)
    /// A notification that is not queued but leaves a trace in the log (e.g. expiration 0,
    /// handed straight to a connected device).
    case record(Notification, LogStatus)
    /// Move every notification whose expiration has passed out of the queues into the log.
    case sweepExpired
    /// A device acknowledged a notification: it leaves its queue and is logged as delivered.
    case acknowledge(uniqueID: String)
    /// A new token for an app (`topic`) on a device.
    case register(token: DeviceToken, topic: String, deviceID: String?)
    /// The app was removed: the token stops being valid now, its queue is dropped, and it is
    /// recorded for the feedback service.
    case unregister(token: DeviceToken)
    /// The feedback service handed these entries to a provider: they leave the feedback list,
    /// unless the token was unregistered again since (its time differs).
    case clearFeedback([FeedbackEntry])
    /// Forget these notifications: out of their queues (never delivered) and out of the log.
    case delete([StoredNotificationKey])
    /// Empty every queue, the log, the feedback list and Notification Center; with `devices`,
    /// forget every token and every app's settings too.
    case clear(devices: Bool)
    /// The phone changed an app: its settings, its Notification Center.
    case saveApp(AppChange)
    /// A broadcast channel was created, deleted, or took a message to keep.
    case saveChannel(BroadcastChannel)
    /// A bundle's broadcast capability was turned on or off.
    case saveBroadcastSetting(bundleID: String, enabled: Bool)
}

/// What an operation did, once its transaction has committed.
public enum StoreOutcome: Sendable, Equatable {
    /// Queued for its device under this sequence number.
    case queued(sequence: UInt64)
    /// Not stored: its expiration was 0 or already past and no device took it (recorded in the log).
    case discarded
    /// Not stored, but to be handed to the connected device now (expiration 0 or past).
    case deliverOnce
    /// Recorded in the log.
    case recorded
    /// This many notifications had expired and were moved to the log.
    case swept(count: Int)
    /// Acknowledged: the notification left its queue (false if it was not queued, e.g. acknowledged twice).
    case acknowledged(Bool)
    /// The token was registered.
    case registered
    /// The token was already in use; nothing changed.
    case tokenTaken
    /// Unregistered at this time (ms since the UNIX epoch).
    case unregistered(timestamp: Int64)
    /// Refused: the token is not registered and the store takes registered tokens only.
    case unknownToken
    /// Refused: the token was registered for another topic.
    case tokenNotForTopic
    /// Refused: the token was unregistered at this time (ms since the UNIX epoch).
    case tokenUnregistered(timestamp: Int64)
    /// This many feedback entries were cleared.
    case feedbackCleared(count: Int)
    /// This many notifications were deleted (queued or logged).
    case deleted(count: Int)
    /// Everything was emptied.
    case cleared
    /// An app's change was written.
    case appSaved
    /// A channel, or a bundle's broadcast setting, was written.
    case channelSaved
    /// Not done: the operation could not be stored (why, in words). Nothing else in its batch
    /// was affected: a bad operation fails alone.
    case refused(String)
}

/// Which tokens a push may go to.
public enum TokenPolicy: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Any well-formed token; its queue waits for a device that resumes it.
    case open
    /// Only tokens the emulator issued (unknown → 400 BadDeviceToken, as APNs does).
    case registered

    public var description: String { self.rawValue }

    /// Why a push to a token is refused, given what the store knows of it (`record`) and the
    /// provider's topic; `nil` lets it through. The writer and the gateway's early check share it.
    public func refusal(for record: TokenRecord?, topic: String?) -> StoreOutcome? {
        guard let record else { return self == .registered ? .unknownToken : nil }
        if let unregisteredAt = record.unregisteredAt { return .tokenUnregistered(timestamp: unregisteredAt) }
        if let topic, !record.topic.isEmpty, topic != record.topic { return .tokenNotForTopic }
        return nil
    }
}

/// What an offline device's queue keeps.
public enum StoragePolicy: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Every notification, up to the per-device cap (oldest dropped first).
    case all
    /// Only the most recent notification per topic, as APNs does.
    case latest

    public var description: String { self.rawValue }
}

/// Counters of the writer's work since the store opened.
public struct StoreStatistics: Sendable, Equatable {
    /// Write transactions committed.
    public var commits = 0
    /// Operations those transactions held.
    public var operations = 0
    /// Transactions that failed (nothing of them was written).
    public var failedCommits = 0
}

/// A notification waiting in a device queue.
public struct QueuedNotification: Sendable, Equatable {
    /// Acceptance order across the whole store.
    public var sequence: UInt64
    public var notification: Notification
}

/// A notification that left the queues, kept for inspection.
public struct LoggedNotification: Sendable, Equatable {
    public var sequence: UInt64
    public var status: LogStatus
    /// Milliseconds since the UNIX epoch when it left.
    public var at: Int64
    public var notification: Notification
}

import APNsCore
import APNsDevice

/// One change for the writer to make; many are committed together. The rare operations with
/// large values are boxed (`indirect`): an operation is copied on its way to the writer, and an
/// enum is as large as its largest case, so an `accept` would otherwise move a whole app's settings.
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
    case register(token: DeviceToken, topic: String, deviceID: String?, environment: APNsEnvironment? = nil)
    /// A token exactly as a seed file (or an export) gives it, times included, replacing what the
    /// store holds for it; an unregistered one is listed for the feedback service unless
    /// `feedbackRead` (a provider read it before the export).
    indirect case restoreToken(TokenRecord, feedbackRead: Bool)
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
    indirect case saveApp(AppChange)
    /// A broadcast channel was created, deleted, or took a message to keep.
    indirect case saveChannel(BroadcastChannel)
    /// A bundle's broadcast capability was turned on or off.
    case saveBroadcastSetting(bundleID: String, enabled: Bool)
    /// A provider got an error for a request: kept under the time it arrived and its journal id,
    /// the newest as many as the log keeps.
    case recordRejection(RejectionKey, record: [UInt8])
    /// What the phone made of the stored notification `sequence`, as the journal encoded it:
    /// kept with the notification's record, and forgotten with it.
    case recordPhone(sequence: UInt64, record: [UInt8])
    /// Forget these rejected requests.
    case deleteRejections([RejectionKey])
}

import APNsCore
import APNsDevice

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
    /// The phone's record of a stored notification was written (false: the store no longer holds the notification).
    case phoneRecorded(Bool)
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
    /// Refused: the token belongs to the other environment (the one given), so it was sent to
    /// the wrong endpoint.
    case tokenInOtherEnvironment(APNsEnvironment)
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

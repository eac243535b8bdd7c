import APNsCore
import APNsDevice

/// A notification that left the queues, kept for inspection.
public struct LoggedNotification: Sendable, Equatable {
    public var sequence: UInt64
    public var status: LogStatus
    /// Milliseconds since the UNIX epoch when it left.
    public var at: Int64
    public var notification: Notification
}

import APNsCore
import APNsDevice

/// One step of a notification's way through APNs, in the words of the Push Notifications
/// Console's delivery log and metrics ("Received by APNs", "Stored - Device Offline", ...).
public struct DeliveryEvent: Hashable, Sendable {
    /// The Console's name for the step; `Phone Decision` for what the emulated phone did last.
    public var event: String
    /// When, on the emulator's clock (ms since the UNIX epoch).
    public var at: Int64
    /// What happened, for a person.
    public var detail: String

    public init(_ event: String, at: Int64, _ detail: String) {
        self.event = event
        self.at = at
        self.detail = detail
    }
}

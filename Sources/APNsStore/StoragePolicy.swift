import APNsCore
import APNsDevice

/// What an offline device's queue keeps.
public enum StoragePolicy: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Every notification, up to the per-device cap (oldest dropped first): to see everything.
    case all
    /// One notification per topic (app), the newest replacing the older, while the device is
    /// offline; the default, as APNs does ("APNs stores only one notification per bundle ID",
    /// Apple, "Sending notification requests to APNs").
    case latest

    public var description: String { self.rawValue }
}

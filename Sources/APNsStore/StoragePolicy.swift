import APNsCore
import APNsDevice

/// What an offline device's queue keeps.
public enum StoragePolicy: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Every notification, up to the per-device cap (oldest dropped first).
    case all
    /// Only the most recent notification per topic, as APNs does.
    case latest

    public var description: String { self.rawValue }
}

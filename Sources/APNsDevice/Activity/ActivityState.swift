import APNsCore

/// ActivityKit's `ActivityState`, by its names. `pending` (iOS 26): scheduled to start at a
/// date and not started yet (Apple, `ActivityState.pending`).
public enum ActivityState: String, Codable, Hashable, Sendable {
    case active, stale, ended, dismissed, pending
}

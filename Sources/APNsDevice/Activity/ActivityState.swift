import APNsCore

/// ActivityKit's `ActivityState`, by its names.
public enum ActivityState: String, Codable, Hashable, Sendable {
    case active, stale, ended, dismissed
}

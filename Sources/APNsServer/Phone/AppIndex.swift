import APNsDevice

/// What one concern of the phone keeps from the apps to find them without reading each (the
/// Live Activity tokens, the web apps' endpoints, the apps with local notifications pending, the
/// tokens no device holds). ``PhoneApps`` keeps every index in step: each change to an app,
/// and each app read at start, passes through ``track(_:_:)``.
protocol AppIndex: Sendable {
    /// Whether the index holds anything of such an app: when not, its lock is not taken for
    /// the app's changes (most changes concern neither a web app nor a token without a device).
    static func concerns(_ app: AppModel, _ install: AppInstall) -> Bool
    /// Takes in `app` as it is now (after a change, or as the store held it at start).
    mutating func track(_ app: AppModel, _ install: AppInstall)
}

extension AppIndex {
    static func concerns(_ app: AppModel, _ install: AppInstall) -> Bool { true }
}

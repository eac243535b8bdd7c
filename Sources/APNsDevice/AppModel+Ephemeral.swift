/// Ephemeral authorization (iOS 14, App Clips). Source: Apple, `UNAuthorizationStatus.ephemeral`
/// ("the app is temporarily authorized to post notifications; only available to app clips") and
/// "Enabling notifications in App Clips": an App Clip may schedule or receive notifications for
/// up to eight hours after each launch.
extension AppModel {
    /// How long an App Clip's ephemeral authorization lasts after each launch.
    public static let ephemeralHours: Int64 = 8

    /// After a change at `now`: an authorization just made ephemeral, or an App Clip launched while
    /// it is, lasts eight hours from now; another status has no end.
    public mutating func renewEphemeral(at now: Int64, launched: Bool) {
        guard self.authorization.status == .ephemeral else {
            self.ephemeralUntil = nil
            return
        }
        if self.ephemeralUntil == nil || launched { self.ephemeralUntil = now + Self.ephemeralHours * 3_600_000 }
    }

    /// At `now`, an ephemeral authorization past its eight hours ends: the App Clip has not asked,
    /// to iOS. Why, when it ended now; nil otherwise.
    public mutating func endEphemeral(at now: Int64) -> String? {
        guard self.authorization.status == .ephemeral, let until = self.ephemeralUntil, until <= now else { return nil }
        // Nothing shows, as for an app that has not asked.
        self.authorization = .notDetermined
        self.ephemeralUntil = nil
        return
            "the App Clip's ephemeral authorization ended \(Self.ephemeralHours) hours after its last launch, so its authorization is notDetermined again"
    }

    /// The app as iOS sees it at `now` (an ephemeral authorization past its end reads notDetermined).
    public func seen(at now: Int64) -> AppModel {
        var app = self
        _ = app.endEphemeral(at: now)
        return app
    }
}

/// What a change did to an app, as the store writes it: the settings when they changed, and
/// Notification Center's additions and removals; or, for a broadcast, only the broadcast (see
/// ``AppBroadcastDelta``).
public struct AppChange: Hashable, Sendable {
    public var install: AppInstall
    /// The app's settings after the change (Notification Center aside); nil when unchanged.
    public var settings: AppModel?
    public var added: [DeliveredNotification]
    public var removed: [DeliveredNotification]
    /// A broadcast the app applied, kept instead of its settings: the store applies it again
    /// when it reads the app, until settings are written (which take it in).
    public var broadcast: AppBroadcastDelta?

    public init(
        install: AppInstall, settings: AppModel?, added: [DeliveredNotification], removed: [DeliveredNotification],
        broadcast: AppBroadcastDelta? = nil
    ) {
        self.install = install
        self.broadcast = broadcast
        self.settings = settings
        self.added = added
        self.removed = removed
    }

    /// The difference between an app before and after.
    public init(install: AppInstall, from before: AppModel?, to after: AppModel) {
        var beforeSettings = before
        beforeSettings?.delivered = []
        var afterSettings = after
        afterSettings.delivered = []
        let old = Set((before?.delivered ?? []).map(\.uniqueID))
        let new = Set(after.delivered.map(\.uniqueID))
        self.init(
            install: install,
            settings: beforeSettings == afterSettings ? nil : afterSettings,
            added: after.delivered.filter { !old.contains($0.uniqueID) },
            removed: (before?.delivered ?? []).filter { !new.contains($0.uniqueID) }
        )
    }

    public var isEmpty: Bool { self.settings == nil && self.added.isEmpty && self.removed.isEmpty && self.broadcast == nil }
}

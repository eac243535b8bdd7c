import APNsDevice

/// The apps with local notifications pending: what the scheduler looks at.
struct ScheduledApps: AppIndex {
    var installs: Set<AppInstall> = []

    mutating func track(_ app: AppModel, _ install: AppInstall) {
        if app.pending.isEmpty { self.installs.remove(install) } else { self.installs.insert(install) }
    }
}

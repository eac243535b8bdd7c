import APNsDevice
import APNsStore

/// The apps in memory: each read from the store on first use, outside the apps' lock.
extension PhoneApps {
    /// Reads an app the phone has not used yet from the store into memory, before the apps' lock
    /// is taken: no store read happens under it, so a first use holds up no other app's change.
    func preload(_ install: AppInstall) throws(StoreError) {
        guard !self.withLock({ $0.models[install] != nil }) else { return }
        var app: AppModel
        if let stored = try self.store.app(install) {
            app = stored
        } else {
            // A new app on a device in a Focus is in that Focus too.
            app = AppModel()
            app.focus = self.focuses.focus(of: install.deviceID)
        }
        let broadcasts = try self.store.appBroadcastCount(install)
        self.withLock { apps in
            guard apps.models[install] == nil else { return }
            apps.models[install] = app
            apps.storedBroadcasts[install] = broadcasts
        }
    }

    /// The app in memory, under the apps' lock, after ``preload(_:)``. One a reset forgot in
    /// between starts afresh, as the emptied store would give it.
    static func cached(_ install: AppInstall, _ apps: inout Apps) -> AppModel {
        if let app = apps.models[install] { return app }
        apps.models[install] = AppModel()
        return AppModel()
    }
}

extension PhoneApps {
    /// Empties every Notification Center, and with `devices` forgets every app (the store is
    /// emptied alongside by the reset). `alongside` runs under the apps' lock, so that no change
    /// to an app comes between the apps' reset and the concerns' (their indexes and runs).
    func reset(devices: Bool, alongside: () -> Void) {
        self.withLock { apps in
            if devices {
                apps.models = [:]
            } else {
                for install in apps.models.keys { apps.models[install]?.delivered = [] }
            }
            alongside()
        }
    }
}

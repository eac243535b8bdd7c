import APNsDevice
import APNsStore

/// The apps in memory: each read from the store on first use, outside the apps' lock.
extension Phone {
    /// Reads an app the phone has not used yet from the store into memory, before the apps' lock
    /// is taken: no store read happens under it, so a first use holds up no other app's change.
    func preload(_ install: AppInstall) throws(StoreError) {
        guard !self.apps.withLock({ $0.models[install] != nil }) else { return }
        var app: AppModel
        if let stored = try self.store.app(install) {
            app = stored
        } else {
            // A new app on a device in a Focus is in that Focus too.
            app = AppModel()
            app.focus = self.focuses.withLock { $0[install.deviceID] }
        }
        let broadcasts = try self.store.appBroadcastCount(install)
        self.apps.withLock { apps in
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

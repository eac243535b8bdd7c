import APNsCore
import APNsDevice
import APNsStore

/// The phone's index of Live Activities: what each push-to-start or update token stands for,
/// which app holds each activity, and which apps' activities the clock will still change. Kept
/// in step with the apps (``PhoneApps``) under a lock of its own, so that the accept path's
/// lookup of a token never waits for an app being changed.
struct ActivityIndex: AppIndex {
    typealias ActivityKey = LiveActivities.ActivityKey

    /// How long activities last, for which apps the clock still changes.
    let limits: ActivityLimits
    var tokens: [DeviceToken: ActivityKey] = [:]
    var owners: [String: AppInstall] = [:]
    var clocked: Set<AppInstall> = []

    init(limits: ActivityLimits) {
        self.limits = limits
    }

    /// Indexes the tokens and activities an app holds (at start, and after a change).
    mutating func track(_ app: AppModel, _ install: AppInstall) {
        let limits = self.limits
        if let hex = app.pushToStartToken, let token = DeviceToken(hex: hex) {
            self.tokens[token] = ActivityKey(install: install, target: .pushToStart)
        }
        for activity in app.activities {
            self.owners[activity.id] = install
            if let hex = activity.updateToken, let token = DeviceToken(hex: hex) {
                self.tokens[token] = ActivityKey(install: install, target: .activity(activity.id))
            }
        }
        if app.nextActivityChange(limits: limits) != nil { self.clocked.insert(install) } else { self.clocked.remove(install) }
    }

    /// Tokens withdrawn leave the index; the store operations that register the issued ones (in
    /// `environment`, the app build's; nil for `--environment`'s) and unregister the withdrawn.
    mutating func apply(
        _ changes: [ActivityTokenChange], _ install: AppInstall, topicSuffix: String, environment: APNsEnvironment?
    ) -> [StoreOperation] {
        var operations: [StoreOperation] = []
        for change in changes {
            if let old = change.replaced.flatMap({ DeviceToken(hex: $0) }) {
                self.tokens[old] = nil
                operations.append(.unregister(token: old))
            }
            guard let token = DeviceToken(hex: change.token) else { continue }
            operations.append(
                .register(token: token, topic: install.topic + topicSuffix, deviceID: install.deviceID, environment: environment))
        }
        return operations
    }
}

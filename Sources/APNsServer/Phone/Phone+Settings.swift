import APNsCore
import APNsDevice
import APNsStore
import NIOCore

/// The settings of an app and of its device, as Settings and the app change them.
extension Phone {
    /// Applies `update` to an app. The language and the time zone are the phone's, not the app's:
    /// they change for every app of the device (those the store or memory holds).
    func update(_ install: AppInstall, with update: AppUpdate, on eventLoop: any EventLoop) -> EventLoopFuture<AppModel> {
        let (language, timeZone, iosVersion, platform) = (update.language, update.timeZone, update.iosVersion, update.platform)
        let surfaces = update.pairedSurfaces
        let summaryTimes = update.summaryTimes
        let now = self.clock()
        let limits = self.activities.limits
        let others: [AppInstall]
        do {
            let devicewide =
                language != nil || timeZone != nil || iosVersion != nil || platform != nil || surfaces != nil
                || summaryTimes != nil
            others = devicewide ? try self.apps.installs(onDevice: install.deviceID).filter { $0 != install } : []
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        // The language, the time zone, the OS version and the platform are the device's: every app follows.
        // Live Activities follow the settings: turned off, they leave; a push-to-start token
        // comes once the app declares a type on iOS 17.2 or later.
        let devicewide = { (app: inout AppModel) -> ActivityReport in
            if let language { app.language = language }
            if let timeZone, timeZone != app.timeZone {
                app.timeZone = timeZone
                app.timeZoneChanged(now: now)
            }
            if let iosVersion { app.iosVersion = iosVersion }
            if let platform { app.platform = platform }
            if let surfaces { app.pairedSurfaces = surfaces }
            if let summaryTimes { app.summaryTimes = summaryTimes }
            var report = ActivityReport(event: "settings", outcome: ActivityOutcome(.settings))
            if !app.liveActivitiesEnabled { report.changes = app.dismissAllActivities(at: now, limits: limits) }
            if let token = app.ensurePushToStartToken(issueToken: self.activities.issueToken) { report.tokens.append(token) }
            return report
        }
        for other in others { _ = self.activities.changeActivities(other, on: eventLoop, devicewide) }
        return self.activities.changeActivities(install, on: eventLoop) { (app: inout AppModel) in
            var changed = update
            changed.timeZone = nil
            app = changed.applied(to: app)
            app.renewEphemeral(at: now, launched: changed.appState == .foreground)
            return devicewide(&app)
        }.map { $1 }
    }
}

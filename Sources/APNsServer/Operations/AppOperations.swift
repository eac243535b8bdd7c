import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// What the admin API and the device protocol do to an app on the phone and to what it shows,
/// one operation per action: its settings (changed by the user in Settings, or by the app at
/// launch), the user's response to a notification, Notification Center. The same documents,
/// checks and refusals (``PhoneRefusal``) at both doors.
struct AppOperations {
    let phone: Phone

    /// Who changes the app's settings: the user (in Settings; the admin API, a test) may change
    /// anything; the app only what is its own (not its authorization or alert style).
    enum Changer {
        case user
        case app
    }

    /// The app's settings as the admin API shows them.
    func read(_ install: AppInstall, token: DeviceToken) -> Result<[UInt8], PhoneRefusal> {
        do {
            // As iOS sees it now: an App Clip's ephemeral authorization past its end reads notDetermined.
            let app = try self.phone.apps.app(install).seen(at: self.phone.clock())
            return .success(PhoneJSON.app(app, token: token.hex, topic: install.topic, deviceID: install.deviceID))
        } catch {
            return .failure(PhoneRefusal(.failedReading, "could not read the app: \(error)"))
        }
    }

    /// The change a door's document asks for (the admin API's body, a device's configure frame,
    /// a seed's settings); an invalid refusal, with an example, when it does not decode.
    static func readUpdate(_ document: [UInt8]) throws(PhoneRefusal) -> AppUpdate {
        try PhoneRefusal.reading(AppUpdate.self, from: document, example: AppUpdate.example)
    }

    /// Changes what `update` gives, as `changer` may; the app after it.
    func update(
        _ install: AppInstall, _ update: AppUpdate, by changer: Changer, on eventLoop: any EventLoop
    ) -> EventLoopFuture<AppModel> {
        if changer == .app, !update.isAppsOwn {
            return eventLoop.makeFailedFuture(
                PhoneRefusal(
                    .invalid,
                    "an app cannot set its own authorization or alert style: ask with authorize; the user changes them in Settings"
                ))
        }
        if changer == .app, case .some(.some(let serviceExtension)) = update.serviceExtension, serviceExtension.needsAdmin {
            return eventLoop.makeFailedFuture(
                PhoneRefusal(
                    .invalid,
                    "a device may declare only itself as the app's service extension ({\"device\": true}); a command or a URL is set through the admin API (PUT /api/v1/devices/{token}/app)"
                ))
        }
        return self.phone.update(install, with: update, on: eventLoop).flatMapErrorThrowing {
            throw PhoneRefusal($0, saving: "the app")
        }
    }

    /// The app asks for authorization (`requestAuthorization(options:)`): the first time the
    /// user answers `userAllows`, later the saved answer comes back (UNUserNotificationCenter's
    /// rules, in ``Authorization/request(_:userAllows:)``); the answer is saved with the app.
    func requestAuthorization(
        _ install: AppInstall, options: Authorization.Options, userAllows: Bool, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Authorization.Answer> {
        self.phone.apps.change(install, on: eventLoop) { (app: inout AppModel) -> Authorization.Answer in
            let answer = app.authorization.request(options, userAllows: userAllows)
            app.authorization = answer.authorization
            return answer
        }.map(\.0)
    }

    /// The user taps, picks an action, replies or dismisses (`default`, `dismiss`, an action's
    /// identifier): 404 for a notification no phone presented, 409 when that is not offered on
    /// screen. The token it was presented to, and the response.
    func respond(
        to uniqueID: String, action: String, text: String?, context: ActionContext?, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(token: DeviceToken, response: UserResponse)> {
        do {
            guard try self.phone.notifications.owner(of: uniqueID) != nil else {
                throw PhoneRefusal.notFound(
                    "no notification \(uniqueID) was presented on a phone (or it is no longer in the journal)")
            }
        } catch {
            return eventLoop.makeFailedFuture(PhoneRefusal(error, saving: "the response"))
        }
        return self.phone.notifications.respond(to: uniqueID, action: action, text: text, context: context, on: eventLoop)
            .flatMapErrorThrowing { throw PhoneRefusal($0, saving: "the response") }
    }

    /// What the app's Notification Center holds.
    func delivered(_ install: AppInstall) -> Result<[UInt8], PhoneRefusal> {
        do {
            return .success(PhoneJSON.delivered(try self.phone.apps.app(install).delivered))
        } catch {
            return .failure(PhoneRefusal(.failedReading, "could not read Notification Center: \(error)"))
        }
    }

    /// `removeDeliveredNotifications` (one, 404 when it is not there) or
    /// `removeAllDeliveredNotifications` (`uniqueID` nil): how many were removed.
    func removeDelivered(_ uniqueID: String?, from install: AppInstall, on eventLoop: any EventLoop) -> EventLoopFuture<Int> {
        self.phone.apps.change(install, on: eventLoop) { (app: inout AppModel) -> Int in app.removeDelivered(uniqueID) }
            .flatMapThrowing { removed, _ in
                if let uniqueID, removed == 0 {
                    throw PhoneRefusal.notFound("notification \(uniqueID) is not in this app's Notification Center")
                }
                return removed
            }.flatMapErrorThrowing { throw PhoneRefusal($0, saving: "Notification Center") }
    }
}

import APNsCore
import APNsDevice
import APNsStore
import NIOCore

/// The user's responses to what the phone presented.
extension PhoneNotifications {
    /// The token and app of a notification the phone presented (or the journal still holds).
    func owner(of uniqueID: String) throws(StoreError) -> (token: DeviceToken, install: AppInstall)? {
        if let known = self.ledger.decision(uniqueID) { return (known.token, known.install) }
        let entry = self.journal.entry(uniqueID: uniqueID)
        guard case .accepted(let notification) = entry?.push else { return nil }
        guard let install = try self.apps.install(of: notification.token, topic: notification.topic) else { return nil }
        return (notification.token, install)
    }

    /// The user responds to notification `uniqueID` on its phone; recorded (journal, event) once
    /// durable. The caller tells the device.
    func respond(
        to uniqueID: String,
        action: String,
        text: String?,
        context: ActionContext?,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<(token: DeviceToken, response: UserResponse)> {
        let owner: (token: DeviceToken, install: AppInstall)
        do {
            guard let found = try self.owner(of: uniqueID) else {
                return eventLoop.makeFailedFuture(
                    DeviceModelError(
                        .notOffered, field: "uniqueId",
                        "notification \(uniqueID) was never presented on a phone (or is no longer in the journal)")
                )
            }
            owner = found
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        let now = self.clock()
        return self.apps.change(owner.install, on: eventLoop) { (app: inout AppModel) throws(DeviceModelError) -> UserResponse in
            let (response, after) = try UserResponse.respond(
                to: uniqueID, action: action, text: text, context: context, at: now, app: app)
            app = after
            return response
        }.map { response, _ in
            self.journal.responded(uniqueID: uniqueID, response)
            return (owner.token, response)
        }
    }
}

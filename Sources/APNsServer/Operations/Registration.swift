import APNsCore
import APNsDevice
import APNsStore
import NIOCore

/// An app registering for remote notifications, as the admin API and a device session both do
/// it: the token the provider chose, or one the phone issues (another on the rare collision with
/// one in use), registered for the app's topic on the device.
struct Registration {
    let phone: Phone
    let relay: Relay

    /// How a registration ended.
    enum Outcome: Equatable {
        case registered(DeviceToken)
        /// A chosen token that is registered and valid: nothing changed.
        case chosenTaken
        /// Every issued token collided with one in use (`attempts` of them).
        case collided
    }

    /// Registers `chosen`, or a token the phone issues, trying up to `attempts` issued tokens;
    /// the token belongs to `environment`, the app build's (nil: `--environment`'s).
    func register(
        topic: String, deviceID: String?, environment: APNsEnvironment? = nil, chosen: DeviceToken? = nil,
        attempts: Int = 3, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Outcome> {
        let token = chosen ?? self.phone.ids.newToken()
        return self.relay.register(token: token, topic: topic, deviceID: deviceID, environment: environment, on: eventLoop)
            .flatMap { outcome in
                switch outcome {
                case .registered:
                    guard let deviceID, let environment else { return eventLoop.makeSucceededFuture(.registered(token)) }
                    // The app on the device is that build: the tokens ActivityKit issues it belong
                    // to its environment too.
                    let install = AppInstall(deviceID: deviceID, topic: PhoneApps.appTopic(topic))
                    return self.phone.apps.change(install, on: eventLoop) { app in app.environment = environment }
                        .map { _ in .registered(token) }
                case .tokenTaken where chosen != nil: return eventLoop.makeSucceededFuture(.chosenTaken)
                case .tokenTaken where attempts > 1:
                    return self.register(
                        topic: topic, deviceID: deviceID, environment: environment, attempts: attempts - 1, on: eventLoop)
                case .tokenTaken: return eventLoop.makeSucceededFuture(.collided)
                default:
                    return eventLoop.makeFailedFuture(
                        ServerError(.store, subject: "register", "unexpected store outcome \(outcome)"))
                }
            }
    }
}

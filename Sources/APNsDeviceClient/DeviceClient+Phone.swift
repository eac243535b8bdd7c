import APNsDevice
import APNsWire
import Foundation

/// Version 2: the apps on this device ask for authorization and change their settings; the
/// person holding the phone responds to notifications.
extension DeviceClient {
    /// The app asks to alert, sound and badge. The first time, the emulated user answers with
    /// `userAllows`; later, the saved answer comes back and `userAllows` is not used.
    public func requestAuthorization(topic: String, options: Authorization.Options, userAllows: Bool) async throws -> Authorization.Answer {
        let reply = try await self.request(.authorize(topic: topic, options: options.rawValue, allow: userAllows), expecting: .authorization, subject: topic)
        guard case .authorization(_, let status, let bits, let granted, let prompted) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        let allowed = Authorization.Options(rawValue: bits)
        let authorization = Authorization(
            status: [Authorization.Status.notDetermined, .denied, .authorized][Int(min(status, 2))],
            alert: allowed.contains(.alert), sound: allowed.contains(.sound), badge: allowed.contains(.badge)
        )
        return Authorization.Answer(authorization: authorization, granted: granted, prompted: prompted)
    }

    /// The app changes its own settings: `document` is a JSON object with any of `categories`,
    /// `appState`, `foregroundOptions`, `language`, `strings`, `sounds`, `badge` (as the admin
    /// API's app document). Returns the app afterwards.
    public func configure(topic: String, document: [UInt8]) async throws -> AppModel {
        let reply = try await self.request(.configure(topic: topic, document: document), expecting: .app, subject: topic)
        guard case .app(_, let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return try JSONDecoder().decode(AppModel.self, from: Data(body))
    }

    /// Registers the app's categories (replacing any it had).
    public func setCategories(topic: String, _ categories: [NotificationCategory]) async throws -> AppModel {
        let document = try JSONEncoder().encode(["categories": categories])
        return try await self.configure(topic: topic, document: Array(document))
    }

    /// Moves the app to the foreground or background (or ends it).
    public func setAppState(topic: String, _ state: AppState) async throws -> AppModel {
        try await self.configure(topic: topic, document: Array(#"{"appState": "\#(state.rawValue)"}"#.utf8))
    }

    /// The person holding the phone responds to a notification on screen: `default` (a tap),
    /// `dismiss`, or an action's identifier, with `text` for a text-input action. `context` nil is
    /// the one it was shown in. Throws ``DeviceClientError/declined(status:message:)`` (409) when
    /// that action is not offered there.
    public func respond(to uniqueID: String, action: String, text: String? = nil, context: ActionContext? = nil) async throws -> UserResponse {
        let code: UInt8 = switch context {
        case nil: 0
        case .banner: 1
        case .alert: 2
        }
        let reply = try await self.request(.respond(uniqueID: uniqueID, action: action, text: text, context: code), expecting: .response, subject: uniqueID)
        guard case .response(_, let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return try JSONDecoder().decode(UserResponse.self, from: Data(body))
    }
}

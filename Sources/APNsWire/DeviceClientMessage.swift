import APNsCore

/// What a device sends (docs/device-protocol.md).
public enum DeviceClientMessage: Hashable, Sendable {
    /// `credential`: the emulator's admin token, which an emulator started with
    /// `--require-device-token` asks every device for (as APNs asks a device for its
    /// certificate); sent after the device id only when given.
    case hello(version: UInt8, deviceID: String, credential: String? = nil)
    /// `environment`: the app build's (development: a debug build from Xcode; production:
    /// TestFlight, the App Store); nil for the emulator's `--environment`. Sent after the topic
    /// only when given.
    case register(topic: String, environment: APNsEnvironment? = nil)
    case resume(tokens: [DeviceToken])
    case unregister(topic: String)
    case ack(uniqueID: String)
    case ping(UInt64)
    /// Version 2: the app asks for `options` (``AuthorizationOptionBits``); `allow` is what the
    /// emulated user answers if asked.
    case authorize(topic: String, options: UInt8, allow: Bool)
    /// Version 2: the app changes its own settings (a JSON document: categories, app state,
    /// foreground options, language, strings, sounds, badge).
    case configure(topic: String, document: [UInt8])
    /// Version 2: the user responds to a notification on screen; `context` 0 = the one it was
    /// shown in, 1 = banner, 2 = alert.
    case respond(uniqueID: String, action: String, text: String?, context: UInt8)
    /// Version 2: the app schedules a local notification (a JSON document: `identifier`,
    /// `content`, `trigger`, as the admin API's `POST .../pending`).
    case schedule(topic: String, document: [UInt8])
    /// Version 2: the app lists its pending local notifications.
    case listPending(topic: String)
    /// Version 2: the app cancels one pending local notification, or all of them (nil).
    case cancel(topic: String, identifier: String?)
    /// Version 3: the app declares its Live Activity types (JSON: the app document's
    /// `activityTypes`, `{"<Name>": {"attributes": {...}, "contentState": {...}}}`).
    case declareActivities(topic: String, document: [UInt8])
    /// Version 3: the app starts a Live Activity (`Activity.request`; JSON as the admin API's
    /// `POST .../activities`).
    case startActivity(topic: String, document: [UInt8])
    /// Version 3: the app ends one of its activities (JSON as `POST /api/v1/activities/<id>/end`).
    case endActivity(topic: String, activityID: String, document: [UInt8])
    /// Version 3: the app lists its activities.
    case listActivities(topic: String)
    /// Version 2: changes the device's power and connectivity (JSON: any of `online`,
    /// `lowPowerMode`, `locked`); `{}` only asks.
    case power(document: [UInt8])
    /// Version 2: a web app on the device and its Web Push subscription: `action` is subscribe,
    /// list, unsubscribe, permission or show, `document` its JSON (as the admin API's bodies).
    case webApp(action: String, document: [UInt8])
    /// Version 4: the app's service extension hands back the content to show for a notification
    /// the server asked about (``DeviceServerMessage/extend(uniqueID:document:)``): JSON as a
    /// command extension prints it.
    case extended(uniqueID: String, document: [UInt8])
}

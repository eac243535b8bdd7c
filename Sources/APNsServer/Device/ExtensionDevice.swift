/// The device a notification is handed to, as its app's service extension (`{"device": true}`):
/// a session of protocol version 4 or later, asked with `extend` and answering with `extended`.
struct ExtensionDevice: Sendable {
    let deviceID: String
    /// Sends `extend` with the content (JSON) for a notification, on the session's loop.
    let ask: @Sendable (_ uniqueID: String, _ content: [UInt8]) -> Void
}

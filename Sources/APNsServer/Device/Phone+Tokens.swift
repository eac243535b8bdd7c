import APNsCore

/// The tokens the emulator issues: to devices, through the admin API, and ActivityKit's.
extension Phone {
    /// A new device token: 32 random bytes, whose first byte maps to this emulator's shard.
    func newToken() -> DeviceToken { self.shard?.randomToken() ?? DeviceToken.random() }

    /// A new Live Activity token (push-to-start or update), as hex.
    func issueToken() -> String { self.newToken().hex }
}

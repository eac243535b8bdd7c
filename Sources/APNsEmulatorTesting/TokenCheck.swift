import APNsCore

/// The Push Notifications Console's token validation of one token, as
/// ``TestEmulator/checkToken(_:)`` answers it.
public struct TokenCheck: Sendable, Equatable {
    /// Whether the emulator issued or registered it.
    public var known: Bool
    /// Whether it is registered now (false once the app was removed).
    public var registered: Bool
    /// The environment of the build that registered it; nil for an unknown token.
    public var environment: APNsEnvironment?
    /// Apple's host of the endpoint it is valid at (`api.push.apple.com`, `api.sandbox.push.apple.com`).
    public var endpoint: String?
    /// The app (bundle id) it was registered for.
    public var topic: String?
    /// The device that holds it.
    public var deviceID: String?
    /// The answer in a sentence: where to push it, or why not.
    public var verdict: String
}

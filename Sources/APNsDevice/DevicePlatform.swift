/// What the emulated device is: an iPhone (the default), an iPad, a Mac, an Apple Watch or an
/// Apple Vision Pro. Chosen per device (`platform` in an app's settings, like `iosVersion`, which
/// is then that platform's version: the platforms' versions are aligned from 26). It decides
/// which WidgetKit pushes the device takes, and their daily budgets.
///
/// Sources: WidgetKit's `WidgetPushHandler` and `WidgetConfiguration.pushHandler(_:)` are
/// iOS, iPadOS, macOS, visionOS and watchOS 26 (widgets push, June 2025); `ControlPushHandler`
/// and `ControlWidgetConfiguration.pushHandler(_:)` are iOS and iPadOS 18, macOS and watchOS 26,
/// and not on visionOS (controls push). "Keeping a widget up to date": a widget a person views
/// often gets 40 to 70 reloads a day, whatever the platform. PushKit's `PKPushType.complication`:
/// a watch complication takes at most 50 pushes a day.
public enum DevicePlatform: String, Codable, Hashable, Sendable, CaseIterable {
    case iOS, iPadOS, macOS, watchOS, visionOS

    /// Since which version the platform's widgets take pushes.
    public var widgetPushSince: IOSVersion { IOSVersion(parts: [26, 0]) }

    /// Since which version the platform's controls take pushes; nil where controls take none.
    public var controlPushSince: IOSVersion? {
        switch self {
        case .iOS, .iPadOS: IOSVersion(parts: [18, 0])
        case .macOS, .watchOS: IOSVersion(parts: [26, 0])
        case .visionOS: nil
        }
    }

    /// The pushed reloads a widget or control gets a day unless the app sets its own: the top of
    /// Apple's 40 to 70, and on the watch the 50 a complication takes (a watch widget is a
    /// complication; a choice, named in the README, as Apple gives no other watch figure).
    public var defaultReloadsPerDay: Int { self == .watchOS ? 50 : ReloadBudget.defaultPerDay }
}

/// How many pushed reloads a widget (or control) gets in a 24-hour window, and what it used.
///
/// WidgetKit spreads reloads over the day with a budget; Apple's "Keeping a widget up to date"
/// says a widget a person views often typically gets 40 to 70 a day, and that reloads while the
/// app is in the foreground are not counted. The emulator's default is the top of that range;
/// tests set it per app (`widgetPushBudget`, `controlPushBudget` in the app document).
public struct ReloadBudget: Hashable, Sendable, Codable {
    public static let defaultPerDay = 70
    static let window: Int64 = 86_400_000

    /// Reloads allowed per 24 hours.
    public var perDay = ReloadBudget.defaultPerDay
    /// Whether the app set `perDay` itself (`widgetPushBudget`, `controlPushBudget`); if not, it
    /// follows the device's platform (``DevicePlatform/defaultReloadsPerDay``).
    public var chosen: Bool?
    /// When counted reloads happened, within the last 24 hours (ms on the emulator's clock).
    public var reloads: [Int64] = []
    /// Pushes that arrived with the budget spent: the system put their reload off.
    public var deferred = 0

    public init() {}

    /// Takes one pushed reload at `millis`: true when it happens now, false when it is deferred.
    /// `free`: not counted (the app is in the foreground).
    mutating func take(at millis: Int64, free: Bool) -> Bool {
        self.reloads.removeAll { $0 <= millis - Self.window }
        if free { return true }
        guard self.reloads.count < self.perDay else {
            self.deferred += 1
            return false
        }
        self.reloads.append(millis)
        return true
    }
}

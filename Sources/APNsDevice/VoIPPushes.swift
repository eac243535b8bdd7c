/// What becomes of VoIP pushes (PushKit): the app must report a call to CallKit for each. Source:
/// Apple, `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)`: "On iOS 13.0 and later,
/// if you fail to report a call to CallKit, the system will terminate your app. Repeatedly
/// failing to report calls may cause the system to stop delivering any more VoIP push
/// notifications to your app." The emulator stops after ``failuresBeforeStopping`` failures in a
/// row, until the app is launched again.
public struct VoIPPushes: Hashable, Sendable, Codable {
    /// Whether the app reports a call for each VoIP push (the app's behaviour: the device
    /// protocol's `configure` or the admin API set it).
    public var reportsCalls = true
    /// VoIP pushes in a row for which it reported none.
    public var failures = 0
    /// iOS no longer delivers VoIP pushes to the app (until it is launched again).
    public var stopped = false

    /// Failures in a row after which the phone stops delivering VoIP pushes to the app.
    public static let failuresBeforeStopping = 3

    public init() {}

    private enum CodingKeys: String, CodingKey { case reportsCalls, failures, stopped }

    /// A record written without a field keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.reportsCalls = try container.decodeIfPresent(Bool.self, forKey: .reportsCalls) ?? true
        self.failures = try container.decodeIfPresent(Int.self, forKey: .failures) ?? 0
        self.stopped = try container.decodeIfPresent(Bool.self, forKey: .stopped) ?? false
    }

    /// A VoIP push reaches the app: what became of it.
    public mutating func receive() -> WakeOutcome {
        func outcome(_ kind: WakeOutcome.Kind, _ detail: String) -> WakeOutcome {
            WakeOutcome(
                pushType: "voip", target: "pushKit", outcome: kind, detail: detail, facts: ["failures": "\(self.failures)"])
        }
        if self.stopped {
            return outcome(
                .notWoken,
                "iOS stopped delivering VoIP pushes to the app after it failed to report calls \(Self.failuresBeforeStopping) times in a row; it delivers them again once the app is launched"
            )
        }
        guard self.reportsCalls else {
            self.failures += 1
            self.stopped = self.failures >= Self.failuresBeforeStopping
            let more = self.stopped ? "; iOS now stops delivering VoIP pushes to it" : ""
            return outcome(
                .terminated, "the app did not report a call to CallKit, so iOS terminated it (iOS 13 and later)\(more)")
        }
        self.failures = 0
        return outcome(.woken, "PushKit wakes the app, which reports an incoming call to CallKit")
    }

    /// The user launched the app: VoIP pushes are delivered again.
    public mutating func launched() {
        (self.failures, self.stopped) = (0, false)
    }
}

import APNsCore

extension Notification {
    /// A notification for tests, with defaults for everything but what a test cares about.
    public static func test(
        token: String = String(repeating: "ab", count: 32),
        uniqueID: String = APNsID.random(),
        expiration: Int64? = nil,
        payload: String = #"{"aps":{"alert":"hi"}}"#,
        receivedAt: Int64 = 1_800_000_000_000,
        collapseID: String? = nil,
        topic: String? = "com.example.app"
    ) -> Notification {
        Notification(
            apnsID: APNsID.random(),
            uniqueID: uniqueID,
            token: DeviceToken(hex: token)!,
            topic: topic,
            pushType: .alert,
            priority: .immediate,
            expiration: expiration,
            collapseID: collapseID,
            payload: Array(payload.utf8),
            receivedAt: receivedAt,
            source: .http2
        )
    }
}

import APNsCore

/// When the app's notification service extension runs before the phone presents a notification.
/// Source: Apple, "Modifying content in newly delivered notifications": the extension operates
/// only on remote notifications the system is configured to display as an alert; not when the
/// app's alerts are disabled, nor for a payload that only plays a sound or badges the icon.
/// UNNotificationServiceExtension: the payload's `aps` has `mutable-content: 1`.
extension Presenter {
    /// The content the app's extension is handed for `payload`, or nil when none runs.
    public static func extensionContent(payload: [UInt8], app: AppModel) -> ExtensionContent? {
        guard app.serviceExtension != nil, let aps = JSONValue.member("aps", ofObjectIn: payload),
            aps["mutable-content"]?.isOne == true
        else { return nil }
        let authorization = app.authorization
        let statuses: Set<Authorization.Status> = [.authorized, .provisional, .ephemeral]
        guard statuses.contains(authorization.status), authorization.alert else {
            return nil
        }
        var scratch = Presentation()
        let content = Self.content(of: aps, app: app, into: &scratch)
        guard content.hasAlert else { return nil }
        return ExtensionContent(payload: payload, aps: aps, texts: content.texts)
    }

    /// Presents what the extension made of a notification: the content it replied with (or the
    /// original), with what it did in ``Presentation/serviceExtension``.
    public static func present(
        extended report: ServiceExtensionReport, content: ExtensionContent?, original payload: [UInt8], uniqueID: String,
        at millis: Int64, to app: AppModel, topic: String? = nil
    ) -> (Presentation, AppModel) {
        let shown = content.map { $0.payload(replacing: payload) } ?? payload
        var (presentation, app) = Self.present(
            payload: shown, uniqueID: uniqueID, at: millis, to: app, topic: topic, communication: content?.communication)
        presentation.serviceExtension = report
        if let index = app.delivered.lastIndex(where: { $0.uniqueID == uniqueID }) {
            app.delivered[index].presentation.serviceExtension = report
        }
        return (presentation, app)
    }

    /// A communication notification needs the Communication Notifications capability; without it
    /// the donated intent changes nothing (said in `notes`).
    static func communication(_ communication: Communication?, app: AppModel, notes: inout [String]) -> Communication? {
        guard let communication else { return nil }
        guard app.entitlements.contains(.communicationNotifications) else {
            notes.append(
                "the extension donated an INSendMessageIntent, but the app lacks the Communication Notifications capability (entitlement communication-notifications), so it is shown as an ordinary notification"
            )
            return nil
        }
        return communication
    }
}

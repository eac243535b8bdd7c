import APNsCore
import APNsDevice
import APNsInspection
import Logging
import NIOCore

/// Notifications and their presentation: how the phone presents each notification handed to a
/// device, once (``PresentationLedger``), through the app's service extension when it has one,
/// the tokens whose pushes it presents as they are accepted (no device holds them), and the
/// user's responses.
///
/// Thread-safe.
final class PhoneNotifications: Sendable {
    let apps: PhoneApps
    /// Tokens no device holds whose app has settings.
    let deviceless: IndexLock<DevicelessTokens>
    /// What was decided for each notification handed over.
    let ledger: PresentationLedger
    let extensions: ServiceExtensions
    /// A web push is opened with its web app's keys before it is decided.
    let webApps: PhoneWebApps
    /// A notification held for a Scheduled Summary is noted there.
    let focus: PhoneFocus
    let journal: Journal
    let clock: @Sendable () -> Int64
    let logger: Logger

    init(
        apps: PhoneApps, deviceless: IndexLock<DevicelessTokens>, ledger: PresentationLedger, extensions: ServiceExtensions,
        webApps: PhoneWebApps, focus: PhoneFocus, journal: Journal, clock: @escaping @Sendable () -> Int64, logger: Logger
    ) {
        (self.apps, self.deviceless, self.ledger, self.extensions, self.webApps, self.focus) = (
            apps, deviceless, ledger, extensions, webApps, focus
        )
        (self.journal, self.clock, self.logger) = (journal, clock, logger)
    }

    /// Whether the phone itself takes this token's pushes at acceptance (a token no device holds).
    func presentsAtAcceptance(_ token: DeviceToken) -> Bool {
        self.deviceless.withLock { !$0.tokens.isEmpty && $0.tokens.contains(token) }
    }

    /// The device acknowledged a notification: it will not be handed over again.
    func acknowledged(_ uniqueID: String) {
        self.ledger.forget(uniqueID)
    }

    /// The runs whose time ran out by the emulator's clock end with the original content (the
    /// half-second timer and every move of the clock look).
    func expireExtensions() {
        for uniqueID in self.extensions.due() { self.finishExtension(uniqueID, .expired) }
    }

    /// Presents the notification of a run that ended (once: a reply after its time ran out is
    /// ignored, as iOS ignores a content handler called too late). `deviceID`: the device that
    /// replied as the extension, which must be the one asked. Whether a run ended.
    @discardableResult
    func finishExtension(_ uniqueID: String, _ end: ServiceExtensions.End, from deviceID: String? = nil) -> Bool {
        guard let ended = self.extensions.end(uniqueID, end, from: deviceID) else { return false }
        let run = ended.run
        do {
            try self.apps.preload(run.install)
        } catch {
            self.logger.warning(
                "could not present a notification", metadata: ["apns.unique_id": "\(uniqueID)", "store.error": "\(error)"])
            for waiter in run.waiters { waiter(nil) }
            return true
        }
        let presentation = self.apps.withLock { apps -> Presentation in
            let before = PhoneApps.cached(run.install, &apps)
            let (presentation, presented) = Presenter.present(
                extended: ended.report, content: ended.content, original: run.notification.payload, uniqueID: uniqueID,
                at: ended.at, to: before, topic: run.install.topic)
            var after = presented
            self.record(run.notification, presentation, in: run.install, before: before, after: &after, &apps)
            return presentation
        }
        self.journal.presented(uniqueID: uniqueID, presentation)
        for waiter in run.waiters { waiter(presentation) }
        return true
    }

    /// Forgets every decision and stops waiting for every run (Notification Centers were emptied).
    func reset(devices: Bool) {
        if devices { self.deviceless.reset() }
        self.ledger.removeAll()
        self.extensions.runs.removeAll()
    }

    /// What a version-2 device is told for a notification no app could be named for (a token the
    /// emulator never issued, pushed without a topic): nothing was decided.
    static let noApp: Presentation = {
        var presentation = Presentation()
        presentation.notes = [
            "the emulator knows no app for this token (never registered, pushed without apns-topic), so the phone decided nothing"
        ]
        return presentation
    }()
}

import APNsCore
import APNsDevice
import APNsStore
import NIOCore

/// The phone decides how it presents each notification handed to its device, once: at once, or,
/// for an alert the app's service extension takes (``Presenter/extensionContent(payload:app:)``),
/// once the extension replied or its time ran out (``ServiceExtensions``).
extension PhoneNotifications {
    /// What a presentation decision came to under the apps' lock.
    private enum Decided {
        /// Decided before (a notification handed over twice), or just now.
        case known(Presentation)
        case fresh(Presentation)
        /// The app's extension runs first (just started, or already running).
        case extending(ExtensionContent, ServiceExtension)
        case waiting
    }

    /// Decides how the phone presents `notification` as it is handed to its device, records it
    /// (journal, event, Notification Center) and hands it to `then`; the same decision again for
    /// a notification handed over twice. `then` gets nil when no app can be named for its token.
    /// While the app's service extension runs, `then` waits for it.
    func present(
        _ notification: APNsCore.Notification, on eventLoop: any EventLoop, device: ExtensionDevice? = nil,
        then: (@Sendable (Presentation?) -> Void)? = nil
    ) {
        do {
            guard let install = try self.apps.install(of: notification.token, topic: notification.topic) else {
                then?(nil)
                return
            }
            try self.present(notification, in: install, on: eventLoop, device: device, then: then)
        } catch {
            self.logger.warning(
                "could not present a notification",
                metadata: ["apns.unique_id": "\(notification.uniqueID)", "store.error": "\(error)"])
            then?(nil)
        }
    }

    private func present(
        _ notification: APNsCore.Notification, in install: AppInstall, on eventLoop: any EventLoop, device: ExtensionDevice?,
        then: (@Sendable (Presentation?) -> Void)?
    ) throws(StoreError) {
        let now = self.clock()
        let web = notification.source == .webPush ? self.webApps.openWebPush(notification, in: install) : nil
        // Under the apps' lock: two hand-overs of one notification decide once.
        try self.apps.preload(install)
        let decided = self.apps.withLock { apps -> Decided in
            if let known = self.ledger.decision(notification.uniqueID) { return .known(known.presentation) }
            if self.extensions.runs.join(notification.uniqueID, then) { return .waiting }
            let before = PhoneApps.cached(install, &apps)
            if web == nil, notification.source == .http2 || notification.source == .binary,
                !PushWake.handles(notification.pushType),
                let serviceExtension = before.serviceExtension,
                let content = Presenter.extensionContent(payload: notification.payload, app: before)
            {
                let run = ExtensionRuns.Run(
                    install: install, notification: notification, serviceExtension: serviceExtension, content: content,
                    startedAt: now, deadline: now + serviceExtension.timeoutMillis, stop: nil, waiters: then.map { [$0] } ?? [])
                self.extensions.runs.begin(notification.uniqueID, run)
                return .extending(content, serviceExtension)
            }
            return .fresh(self.decide(notification, in: install, before: before, web: web, at: now, &apps))
        }
        switch decided {
        case .known(let presentation):
            then?(presentation)
        case .fresh(let presentation):
            self.journal.presented(uniqueID: notification.uniqueID, presentation)
            then?(presentation)
        case .extending(let content, let serviceExtension):
            // Only the device the app is on answers as its extension.
            let asked = device.flatMap { $0.deviceID == install.deviceID ? $0 : nil }
            self.journal.extending(uniqueID: notification.uniqueID)
            let uniqueID = notification.uniqueID
            self.extensions.start(serviceExtension, content: content, for: notification, device: asked, on: eventLoop) {
                [self] reply in
                self.finishExtension(uniqueID, .replied(reply))
            }
        case .waiting:
            break
        }
    }

    /// The decision for a notification no extension takes; under the apps' lock.
    private func decide(
        _ notification: APNsCore.Notification, in install: AppInstall, before: AppModel,
        web: PhoneWebApps.OpenedWebPush?, at now: Int64, _ apps: inout PhoneApps.Apps
    ) -> Presentation {
        // Widgets, controls, push to talk, location, complication, file provider and MDM pushes
        // wake part of the app; the others are presented.
        var (presentation, after): (Presentation, AppModel)
        if let web {
            (presentation, after) = WebPushReceiver.receive(
                opened: web.opened, facts: web.facts, uniqueID: notification.uniqueID, at: now, to: before)
        } else if PushWake.handles(notification.pushType) {
            (presentation, after) = PushWake.wake(
                pushType: notification.pushType, payload: notification.payload, priority: notification.priority, at: now,
                app: before)
        } else {
            (presentation, after) = Presenter.present(
                payload: notification.payload, uniqueID: notification.uniqueID, at: now, to: before, topic: install.topic)
        }
        self.record(notification, presentation, in: install, before: before, after: &after, &apps)
        return presentation
    }

    /// Keeps a decision: the app after it (saved), the local request it fired from, the ledger.
    /// Under the apps' lock.
    func record(
        _ notification: APNsCore.Notification, _ presentation: Presentation, in install: AppInstall, before: AppModel,
        after: inout AppModel, _ apps: inout PhoneApps.Apps
    ) {
        if let request = self.ledger.takeLocalRequest(notification.uniqueID),
            let index = after.delivered.lastIndex(where: { $0.uniqueID == notification.uniqueID })
        {
            after.delivered[index].requestIdentifier = request
        }
        apps.models[install] = after
        if let at = presentation.summaryAt, !presentation.summaryPresented {
            self.focus.awaitSummary(of: install, at: at)
        }
        // A web app the browser ended the subscription of (pushes not shown) takes no more.
        if after.webApp != before.webApp { self.webApps.index.track(after, install) }
        let change = AppChange(install: install, from: before, to: after)
        if !change.isEmpty { self.apps.save(change) { _ in } }
        self.ledger.record(notification.uniqueID, .init(install: install, token: notification.token, presentation: presentation))
    }
}

import APNsCore
import APNsDevice
import Foundation
import NIOCore

/// The app's notification service extension between a notification's arrival and its
/// presentation: started with the content, presented with its reply, or with the original when
/// it fails or its time (on the emulator's clock) runs out first, as iOS does after
/// `serviceExtensionTimeWillExpire`. Sources: Apple, UNNotificationServiceExtension and
/// `serviceExtensionTimeWillExpire()`.
extension Phone {
    /// Starts the extension of the run just begun for `notification`.
    func startExtension(
        _ serviceExtension: ServiceExtension, content: ExtensionContent, for notification: APNsCore.Notification,
        device: ExtensionDevice?, on eventLoop: any EventLoop
    ) {
        let uniqueID = notification.uniqueID
        let runner = ServiceExtensionRunner()
        let stop = runner.run(serviceExtension, content: content, uniqueID: uniqueID, device: device, on: eventLoop) {
            [self] result in
            self.finishExtension(uniqueID, .replied(result))
        }
        self.extensionRuns.started(uniqueID, stop: stop)
    }

    /// How a run ended.
    enum ExtensionEnd: Sendable {
        case replied(Result<[UInt8], ExtensionReplyError>)
        case expired
    }

    /// The runs whose time ran out by the emulator's clock end with the original content (the
    /// half-second timer and every move of the clock look).
    func expireExtensions() {
        for uniqueID in self.extensionRuns.due(at: self.clock()) { self.finishExtension(uniqueID, .expired) }
    }

    /// Presents the notification of a run that ended (once: a reply after its time ran out is
    /// ignored, as iOS ignores a content handler called too late). `deviceID`: the device that
    /// replied as the extension, which must be the one asked. Whether a run ended.
    @discardableResult
    func finishExtension(_ uniqueID: String, _ end: ExtensionEnd, from deviceID: String? = nil) -> Bool {
        guard let run = self.extensionRuns.end(uniqueID, from: deviceID) else { return false }
        let now = self.clock()
        let (report, content) = Self.report(run, end, tookMs: max(0, now - run.startedAt))
        if case .expired = end { run.stop?.stop() }
        do {
            try self.preload(run.install)
        } catch {
            self.logger.warning(
                "could not present a notification", metadata: ["apns.unique_id": "\(uniqueID)", "store.error": "\(error)"])
            for waiter in run.waiters { waiter(nil) }
            return true
        }
        let presentation = self.apps.withLock { apps -> Presentation in
            let before = Self.cached(run.install, &apps)
            let (presentation, presented) = Presenter.present(
                extended: report, content: content, original: run.notification.payload, uniqueID: uniqueID, at: now, to: before,
                topic: run.install.topic)
            var after = presented
            self.record(run.notification, presentation, in: run.install, before: before, after: &after, &apps)
            return presentation
        }
        self.journal.presented(uniqueID: uniqueID, presentation)
        for waiter in run.waiters { waiter(presentation) }
        return true
    }

    /// What a run came to: the report, and the content to show (nil: the original).
    private static func report(
        _ run: ExtensionRuns.Run, _ end: ExtensionEnd, tookMs: Int64
    ) -> (ServiceExtensionReport, ExtensionContent?) {
        let kind: String
        switch run.serviceExtension.kind {
        case .command: kind = "command"
        case .url: kind = "url"
        case .device: kind = "device"
        }
        func failed(_ why: String) -> (ServiceExtensionReport, ExtensionContent?) {
            (ServiceExtensionReport(outcome: .failed, kind: kind, original: run.content, tookMs: tookMs, reason: why), nil)
        }
        switch end {
        case .expired:
            let limit = DurationText.text(millis: run.serviceExtension.timeoutMillis)
            let report = ServiceExtensionReport(
                outcome: .timeWillExpire, kind: kind, original: run.content, tookMs: tookMs,
                reason: "no reply within \(limit) on the emulator's clock: serviceExtensionTimeWillExpire, the original is shown")
            return (report, nil)
        case .replied(.failure(let error)):
            return failed(error.description)
        case .replied(.success(let bytes)):
            switch run.content.replied(bytes) {
            case .failure(let error):
                return failed(error.description)
            case .success(var content):
                for index in content.attachments.indices {
                    content.attachments[index].check(size: Self.fileSize(content.attachments[index].path))
                }
                var report = ServiceExtensionReport(outcome: .modified, kind: kind, original: run.content, tookMs: tookMs)
                report.attachments = content.attachments
                return (report, content)
            }
        }
    }

    /// The size of a regular file the emulator can read; nil otherwise.
    private static func fileSize(_ path: String) -> Int? {
        guard FileManager.default.isReadableFile(atPath: path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.intValue
    }
}

import APNsCore
import APNsDevice
import Foundation
import NIOCore

/// The app's notification service extension between a notification's arrival and its
/// presentation: started with the content, presented with its reply, or with the original when
/// it fails or its time (on the emulator's clock) runs out first, as iOS does after
/// `serviceExtensionTimeWillExpire`: the runs going on and how each ends. Sources: Apple,
/// UNNotificationServiceExtension and `serviceExtensionTimeWillExpire()`.
///
/// Thread-safe.
final class ServiceExtensions: Sendable {
    /// The runs going on now.
    let runs = ExtensionRuns()
    let clock: @Sendable () -> Int64

    init(clock: @escaping @Sendable () -> Int64) {
        self.clock = clock
    }

    /// How a run ended.
    enum End: Sendable {
        case replied(Result<[UInt8], ExtensionReplyError>)
        case expired
    }

    /// How a run ended, and what the phone presents: the report, and the content to show (nil:
    /// the original).
    struct Ended {
        var run: ExtensionRuns.Run
        var report: ServiceExtensionReport
        var content: ExtensionContent?
        var at: Int64
    }

    /// Starts the extension of the run just begun for `notification`; `replied` gets its reply.
    func start(
        _ serviceExtension: ServiceExtension, content: ExtensionContent, for notification: APNsCore.Notification,
        device: ExtensionDevice?, on eventLoop: any EventLoop,
        replied: @escaping @Sendable (Result<[UInt8], ExtensionReplyError>) -> Void
    ) {
        let runner = ServiceExtensionRunner()
        let stop = runner.run(
            serviceExtension, content: content, uniqueID: notification.uniqueID, device: device, on: eventLoop, done: replied)
        self.runs.started(notification.uniqueID, stop: stop)
    }

    /// The runs whose time ran out by the emulator's clock.
    func due() -> [String] {
        self.runs.due(at: self.clock())
    }

    /// Ends the run of `uniqueID` (once: a reply after its time ran out is ignored, as iOS
    /// ignores a content handler called too late). `deviceID`: the device that replied as the
    /// extension, which must be the one asked. Nil when no run ended.
    func end(_ uniqueID: String, _ end: End, from deviceID: String? = nil) -> Ended? {
        guard let run = self.runs.end(uniqueID, from: deviceID) else { return nil }
        let now = self.clock()
        let (report, content) = Self.report(run, end, tookMs: max(0, now - run.startedAt))
        if case .expired = end { run.stop?.stop() }
        return Ended(run: run, report: report, content: content, at: now)
    }

    /// What a run came to: the report, and the content to show (nil: the original).
    private static func report(
        _ run: ExtensionRuns.Run, _ end: End, tookMs: Int64
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

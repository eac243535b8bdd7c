import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import Logging
import NIOCore

/// Focus and Scheduled Summaries: the device's Focus over every app of it, and the summaries the
/// apps' notifications wait for (``presentDueSummaries()``).
///
/// Thread-safe.
final class PhoneFocus: Sendable {
    let apps: PhoneApps
    let focuses: DeviceFocuses
    /// The earliest Scheduled Summary each app has notifications waiting for (milliseconds on the
    /// emulator's clock): what ``presentDueSummaries()`` looks at.
    let summaries = RankedMutex(.index, [AppInstall: Int64]())
    let ledger: PresentationLedger
    let journal: Journal
    let clock: @Sendable () -> Int64
    let logger: Logger

    init(
        apps: PhoneApps, focuses: DeviceFocuses, ledger: PresentationLedger, journal: Journal,
        clock: @escaping @Sendable () -> Int64, logger: Logger
    ) {
        (self.apps, self.focuses, self.ledger, self.journal, self.clock, self.logger) = (
            apps, focuses, ledger, journal, clock, logger
        )
    }

    /// Takes in the summaries the apps read at start wait for.
    func load(_ apps: [(AppInstall, AppModel)]) {
        self.summaries.withLock { summaries in
            for (install, app) in apps { if let at = Self.nextSummary(of: app) { summaries[install] = at } }
        }
    }

    /// The Focus of `deviceID` (nil when none is on), and how many apps the device has here.
    func focus(of deviceID: String) throws(StoreError) -> (focus: Focus?, apps: Int) {
        (self.focuses.focus(of: deviceID), try self.apps.installs(onDevice: deviceID).count)
    }

    /// The Focus `deviceID` is in, if any.
    func activeFocus(of deviceID: String) -> Focus? {
        self.focuses.focus(of: deviceID)
    }

    /// Turns `focus` on (nil: off) for `deviceID`: every app it has here, and every app it
    /// installs later. The future holds how many apps it has here once the change is durable.
    func setFocus(_ focus: Focus?, of deviceID: String, on eventLoop: any EventLoop) -> EventLoopFuture<Int> {
        let installs: [AppInstall]
        do {
            installs = try self.apps.installs(onDevice: deviceID)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        self.focuses.set(focus, of: deviceID)
        let changed = installs.map { install in
            self.apps.change(install, on: eventLoop) { (app: inout AppModel) in app.focus = focus }.map { _ in () }
        }
        return EventLoopFuture.andAllSucceed(changed, on: eventLoop).map { installs.count }
    }

    /// Notes that an app's notification waits for the summary at `at`. Under the apps' lock.
    func awaitSummary(of install: AppInstall, at: Int64) {
        self.summaries.withLock { $0[install] = min($0[install] ?? at, at) }
    }

    /// Forgets every summary waited for (Notification Centers were emptied).
    func reset(devices: Bool) {
        if devices { self.focuses.reset() }
        self.summaries.withLock { $0 = [:] }
    }
}

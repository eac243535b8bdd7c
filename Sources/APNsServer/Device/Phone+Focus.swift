import APNsCore
import APNsDevice
import APNsStore
import NIOCore

/// The device's Focus: the phone's, not one app's, so every app of the device holds it (and an
/// app installed later starts in it, ``preload(_:)``).
extension Phone {
    /// The Focus of `deviceID` (nil when none is on), and how many apps the device has here.
    func focus(of deviceID: String) throws(StoreError) -> (focus: Focus?, apps: Int) {
        (self.activeFocus(of: deviceID), try self.installs(onDevice: deviceID).count)
    }

    /// The Focus `deviceID` is in, if any.
    func activeFocus(of deviceID: String) -> Focus? {
        self.focuses.withLock { $0[deviceID] }
    }

    /// Turns `focus` on (nil: off) for `deviceID`: every app it has here, and every app it
    /// installs later. The future holds how many apps it has here once the change is durable.
    func setFocus(_ focus: Focus?, of deviceID: String, on eventLoop: any EventLoop) -> EventLoopFuture<Int> {
        let installs: [AppInstall]
        do {
            installs = try self.installs(onDevice: deviceID)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        self.focuses.withLock { $0[deviceID] = focus }
        let changed = installs.map { install in
            self.change(install, on: eventLoop) { (app: inout AppModel) in app.focus = focus }.map { _ in () }
        }
        return EventLoopFuture.andAllSucceed(changed, on: eventLoop).map { installs.count }
    }
}

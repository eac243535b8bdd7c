import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// A device's Focus, as the admin API and the seed turn it on and off: the same checks and
/// refusals (``PhoneRefusal``) wherever it comes from; each door reads its own document. A Focus
/// is the phone's, not an app's: by device id.
struct FocusOperations {
    let focus: PhoneFocus

    /// The device's Focus (nil: none is on) and how many apps it has here.
    func read(_ deviceID: String) -> Result<(focus: Focus?, apps: Int), PhoneRefusal> {
        do {
            let (focus, apps) = try self.focus.focus(of: deviceID)
            return .success((focus, apps))
        } catch {
            return .failure(PhoneRefusal(.failedReading, "could not read the device's apps: \(error)"))
        }
    }

    /// The Focus a door's document turns on (a ``FocusDocument``; nil: off); an invalid refusal,
    /// with an example, when it does not decode.
    static func readDocument(_ document: [UInt8]) throws(PhoneRefusal) -> Focus? {
        try PhoneRefusal.reading(FocusDocument.self, from: document, example: FocusDocument.example).focus
    }

    /// Turns `focus` on (nil: off) for every app of `deviceID` and those it installs later; the
    /// future holds how many apps it has here once the change is durable.
    func set(_ deviceID: String, _ focus: Focus?, on eventLoop: any EventLoop) -> EventLoopFuture<Int> {
        self.focus.setFocus(focus, of: deviceID, on: eventLoop)
    }
}

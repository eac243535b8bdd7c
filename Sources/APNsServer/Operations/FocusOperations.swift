import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// A device's Focus, as the admin API and the seed turn it on and off: the same document,
/// checks and refusals (``PhoneRefusal``) wherever it comes from. A Focus is the phone's, not an
/// app's: by device id.
struct FocusOperations {
    let phone: Phone

    /// `{"deviceId", "active", "allowedApps", "timeSensitive", "apps"}`.
    func read(_ deviceID: String) -> Result<[UInt8], PhoneRefusal> {
        do {
            let (focus, apps) = try self.phone.focus(of: deviceID)
            return .success(Self.json(deviceID, focus, apps: apps))
        } catch {
            return .failure(PhoneRefusal(.failedReading, "could not read the device's apps: \(error)"))
        }
    }

    /// Turns on or off what `document` (a ``FocusDocument``) says; the Focus afterwards.
    func set(_ deviceID: String, _ document: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<[UInt8]> {
        let focus: Focus?
        do {
            focus = try RequestDocument.decode(FocusDocument.self, from: document, example: FocusDocument.example).focus
        } catch {
            return eventLoop.makeFailedFuture(PhoneRefusal(error))
        }
        return self.set(deviceID, focus, on: eventLoop).map { apps in Self.json(deviceID, focus, apps: apps) }
    }

    /// Turns `focus` on (nil: off) for every app of `deviceID` and those it installs later; the
    /// future holds how many apps it has here once the change is durable.
    func set(_ deviceID: String, _ focus: Focus?, on eventLoop: any EventLoop) -> EventLoopFuture<Int> {
        self.phone.setFocus(focus, of: deviceID, on: eventLoop)
    }

    static func json(_ deviceID: String, _ focus: Focus?, apps: Int) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("deviceId") { $0.string(deviceID) }
            members.member("active") { $0.optionalString(focus?.name) }
            members.member("allowedApps") { $0.array(focus?.allowedApps ?? []) { $0.string($1) } }
            members.member("allowedPeople") { $0.array(focus?.allowedPeople ?? []) { $0.string($1) } }
            members.member("timeSensitive") { $0.raw(focus.map { $0.timeSensitive ? "true" : "false" } ?? "null") }
            members.member("filters") { members in
                guard let focus else { return members.raw("null") }
                members.object { filters in
                    for (topic, criteria) in focus.filters.sorted(by: { $0.key < $1.key }) {
                        filters.member(topic) { $0.array(criteria) { $0.string($1) } }
                    }
                }
            }
            members.member("apps") { $0.number(apps) }
        }
        return writer.bytes
    }
}

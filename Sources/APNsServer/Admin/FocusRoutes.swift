import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// `/api/v1/devices/<device id>/focus`: the Focus the user turned on, by device id (a Focus is
/// the phone's, not an app's). The admin API's door to ``FocusOperations``: they hold the phone's
/// Focus and nothing else.
struct FocusRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let focus: PhoneFocus
    var focusOperations: FocusOperations { FocusOperations(focus: self.focus) }

    /// `GET`: the device's Focus (`active` null when none is on).
    func focus(of deviceID: String) throws(AdminError) -> Response {
        switch self.focusOperations.read(deviceID) {
        case .success(let read): return Response(status: 200, body: Self.focusJSON(deviceID, read.focus, apps: read.apps))
        case .failure(let refusal): throw AdminError(refusal)
        }
    }

    /// `PUT`: turns a Focus on (`{"active": "Work", "allowedApps": [...], "timeSensitive": true}`)
    /// or off (`{"active": null}`) for every app of the device, and those it installs later.
    func setFocus(of deviceID: String, body: [UInt8], on eventLoop: any EventLoop) throws(AdminError) -> EventLoopFuture<Response>
    {
        let focus = try AdminRouter.readPhoneDocument(FocusOperations.readDocument(body))
        return self.focusOperations.set(deviceID, focus, on: eventLoop).map { apps in
            Response(status: 200, body: Self.focusJSON(deviceID, focus, apps: apps))
        }.failingAsRefusal()
    }

    /// `{"deviceId", "active", "allowedApps", "allowedPeople", "timeSensitive", "filters", "apps"}`.
    static func focusJSON(_ deviceID: String, _ focus: Focus?, apps: Int) -> [UInt8] {
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

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{deviceId}/focus", on: \.focusRoutes) { routes, request throws(AdminError) in
            try request.now(routes.focus(of: request.deviceID()))
        },
        // Every shard: the device's apps may be on any of them, and those it installs later too.
        AdminRoute("PUT", "/api/v1/devices/{deviceId}/focus", cluster: .everyShard, on: \.focusRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.setFocus(of: request.deviceID(), body: request.body, on: request.eventLoop))
        },
    ]
}

extension AdminRouter {
    var focusRoutes: FocusRoutes { FocusRoutes(focus: self.phone.focus) }
}

extension AdminRouter.Request {
    /// The path's `{deviceId}`, percent-decoded (`token%3A…` is the device `token:…`).
    func deviceID() -> String {
        let raw = self[path: "deviceId"]
        return raw.removingPercentEncoding ?? raw
    }
}

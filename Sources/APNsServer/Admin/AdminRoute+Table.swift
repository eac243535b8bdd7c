import APNsCore
import APNsInspection
import Foundation
import NIOCore

/// Every admin route, once. A new route is one entry here, its handler (an `AdminRouter`
/// method in the file of its concern) and its operation in `openapi.json`.
extension AdminRoute {
    /// The journal filter's parameters (`JournalFilter.parse`).
    static let filter: Set<String> = ["token", "topic", "pushType", "status", "interface", "since", "q", "outcome"]

    static let table: [AdminRoute] = service + notifications + faults + devices + phone + activities + webApps + channels

    static let service: [AdminRoute] = [
        AdminRoute("GET", "/", isPage: true) { router, request in request.now(router.inboxPage()) },
        AdminRoute("GET", "/inbox/{asset}", isPage: true) { router, request in
            request.now(router.inboxAsset(request[path: "asset"]))
        },
        AdminRoute("GET", "/healthz") { _, request in request.now(.init(status: 200, body: Array(#"{"status":"ok"}"#.utf8))) },
        AdminRoute("GET", "/readyz") { router, request in request.now(router.readyz()) },
        AdminRoute("GET", "/metrics", cluster: .merged(.metrics)) { router, request throws(AdminError) in
            request.now(try router.metrics())
        },
        AdminRoute("GET", "/openapi.json") { _, request in request.now(.init(status: 200, body: OpenAPIDocument.json)) },
        AdminRoute("GET", "/ca.pem") { router, request in request.now(router.caCertificate()) },
        AdminRoute("GET", "/api/v1/clock") { router, request in request.now(router.clockState()) },
        AdminRoute("POST", "/api/v1/clock", cluster: .everyShard) { router, request in
            request.later(router.moveClock(body: request.body, on: request.eventLoop))
        },
        AdminRoute("POST", "/api/v1/export") { router, request in request.now(router.exportWorld()) },
        AdminRoute("POST", "/api/v1/push", cluster: .bodyTokenOwner) { router, request in
            request.later(router.push(body: request.body, on: request.eventLoop))
        },
        AdminRoute("POST", "/api/v1/reset", query: ["devices"], cluster: .everyShard) { router, request throws(AdminError) in
            request.later(try router.reset(request.query, body: request.body, on: request.eventLoop))
        },
    ]

    static let notifications: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/notifications", query: filter.union(["limit", "cursor"]), cluster: .merged(.journalPage)) {
            router, request throws(AdminError) in request.now(try router.notifications(request.query))
        },
        AdminRoute("DELETE", "/api/v1/notifications", query: filter, cluster: .everyShard) {
            router, request throws(AdminError) in
            request.later(try router.deleteNotifications(request.query, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/notifications/latest", query: filter, cluster: .merged(.newest)) {
            router, request throws(AdminError) in request.now(try router.latest(request.query))
        },
        AdminRoute("GET", "/api/v1/notifications/wait", query: filter.union(["after", "timeout"]), cluster: .merged(.wait)) {
            router, request throws(AdminError) in request.later(try router.wait(request.query, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/notifications/{id}", cluster: .uniqueIDOwner) { router, request in
            request.now(router.notification(id: request[path: "id"]))
        },
        AdminRoute("GET", "/api/v1/notifications/{id}.apns", cluster: .uniqueIDOwner) { router, request in
            request.now(router.simulatorFile(id: request[path: "id"]))
        },
        AdminRoute("GET", "/api/v1/notifications/{id}/delivery-log", cluster: .uniqueIDOwner) { router, request in
            request.now(router.deliveryLog(id: request[path: "id"]))
        },
        AdminRoute("POST", "/api/v1/notifications/{id}/respond", cluster: .uniqueIDOwner) { router, request in
            request.later(router.respond(to: request[path: "id"], body: request.body, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/events", query: filter, cluster: .merged(.events)) { _, request throws(AdminError) in
            request.eventLoop.makeSucceededFuture(.events(try AdminRouter.read(JournalFilter.parse(request.query)), peers: nil))
        },
    ]

    static let faults: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/faults", cluster: .merged(.array)) { router, request in request.now(router.faultRules()) },
        AdminRoute("POST", "/api/v1/faults", cluster: .faultRule) { router, request in
            request.now(router.addFaultRule(request.body))
        },
        AdminRoute("DELETE", "/api/v1/faults", cluster: .everyShard) { router, request in request.now(router.removeFaultRules())
        },
        AdminRoute("GET", "/api/v1/faults/{id}", cluster: .faultOwner) { router, request in
            request.now(router.faultRule(id: request[path: "id"]))
        },
        AdminRoute("DELETE", "/api/v1/faults/{id}", cluster: .faultOwner) { router, request in
            request.now(router.removeFaultRule(id: request[path: "id"]))
        },
    ]

    static let devices: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices", cluster: .merged(.array)) { router, request in request.now(router.devices()) },
        AdminRoute("POST", "/api/v1/devices") { router, request in
            request.later(router.register(body: request.body, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/feedback", cluster: .merged(.array)) { router, request in request.now(router.feedback()) },
        AdminRoute("GET", "/api/v1/devices/{token}/notifications", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.queued(for: $0)) }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/unregister", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.unregister($0, on: request.eventLoop)) }
        },
        AdminRoute("GET", "/api/v1/devices/{token}/power", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.power(of: $0, change: nil)) }
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/power", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.power(of: $0, change: request.body)) }
        },
    ]

    static let phone: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/app", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.app(of: $0)) }
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/app", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.changeApp(of: $0, body: request.body, on: request.eventLoop)) }
        },
        AdminRoute("GET", "/api/v1/devices/{token}/delivered", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.delivered(of: $0)) }
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/delivered", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.removeDelivered(of: $0, nil, on: request.eventLoop)) }
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/delivered/{id}", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.removeDelivered(of: $0, request[path: "id"], on: request.eventLoop)) }
        },
        AdminRoute("GET", "/api/v1/devices/{token}/pending", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.pending(of: $0)) }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/pending", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.schedule(for: $0, body: request.body, on: request.eventLoop)) }
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/pending", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.cancel(for: $0, nil, on: request.eventLoop)) }
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/pending/{id}", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.cancel(for: $0, request[path: "id"], on: request.eventLoop)) }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/location", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.move($0, body: request.body, on: request.eventLoop)) }
        },
    ]

    static let activities: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/activities", cluster: .tokenOwner) { router, request in
            request.token { router.withInstall(of: $0, request) { request.now(router.activities(of: $0)) } }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/activities", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(router.startActivity(in: $0, body: request.body, on: request.eventLoop))
                }
            }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/rotate-push-to-start-token", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(router.rotateToken(of: $0, activity: nil, on: request.eventLoop))
                }
            }
        },
        AdminRoute("GET", "/api/v1/activities/{id}", cluster: .activityHolder) { router, request in
            router.withActivity(request) { id, install in request.now(router.activity(id, of: install)) }
        },
        AdminRoute("POST", "/api/v1/activities/{id}/end", cluster: .activityHolder) { router, request in
            router.withActivity(request) { id, install in
                request.later(router.endActivity(id, of: install, body: request.body, on: request.eventLoop))
            }
        },
        AdminRoute("POST", "/api/v1/activities/{id}/rotate-token", cluster: .activityHolder) { router, request in
            router.withActivity(request) { id, install in
                request.later(router.rotateToken(of: install, activity: id, on: request.eventLoop))
            }
        },
    ]

    static let webApps: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/web-apps", cluster: .tokenOwner) { router, request in
            request.token { router.withInstall(of: $0, request) { request.now(router.webApps(in: $0)) } }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps", cluster: .tokenOwner) { router, request in
            request.token { token in
                router.withInstall(of: token, request) {
                    request.later(router.subscribeWebApp(host: token, in: $0, body: request.body, on: request.eventLoop))
                }
            }
        },
        AdminRoute("GET", "/api/v1/devices/{token}/web-apps/{id}", cluster: .tokenOwner) { router, request in
            request.token { router.withInstall(of: $0, request) { request.now(router.webApp(request[path: "id"], in: $0)) } }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps/{id}/unsubscribe", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(router.unsubscribeWebApp(request[path: "id"], in: $0, on: request.eventLoop))
                }
            }
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/web-apps/{id}/permission", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(
                        router.setWebAppPermission(request[path: "id"], in: $0, body: request.body, on: request.eventLoop))
                }
            }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps/{id}/show", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(
                        router.showWebAppNotification(request[path: "id"], in: $0, body: request.body, on: request.eventLoop))
                }
            }
        },
    ]

    static let channels: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/channels", query: ["bundleId"]) { router, request in
            request.now(router.channelList(bundleID: request.query["bundleId"]))
        },
        AdminRoute("GET", "/api/v1/channels/{id*}") { router, request in
            let raw = request[path: "id"]
            return request.now(router.channel(id: raw.removingPercentEncoding ?? raw))
        },
        AdminRoute("PUT", "/api/v1/apps/{bundleId}/broadcast", cluster: .everyShard) { router, request throws(AdminError) in
            request.later(try router.setBroadcast(request[path: "bundleId"], body: request.body, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/cluster/channels") { router, request in request.now(router.ownedChannels()) },
        AdminRoute("POST", "/api/v1/cluster/channels") { router, request in
            request.later(router.adoptChannel(request.body, on: request.eventLoop))
        },
    ]
}

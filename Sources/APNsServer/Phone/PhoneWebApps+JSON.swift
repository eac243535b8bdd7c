import APNsCore
import APNsDevice

/// Web apps as the admin API and the device protocol show them.
extension PhoneWebApps {
    /// The endpoint of a subscription: the Web Push service's address and the id.
    func webPushEndpoint(_ id: String) -> String {
        let address = self.webPushAddress.withLock { $0 }
        var host = address?.ipAddress ?? "localhost"
        if host == "0.0.0.0" || host == "::" { host = "localhost" } else if host.contains(":") { host = "[\(host)]" }
        return "https://\(host):\(address?.port ?? 0)/push/\(id)"
    }

    /// Web apps as a JSON array, each as ``json(_:)-(WebApp)`` writes it.
    func json(webApps: [WebApp]) -> [UInt8] {
        var writer = JSONWriter()
        writer.array(webApps) { writer, webApp in writer.raw(self.json(webApp)) }
        return writer.bytes
    }

    func json(_ webApp: WebApp) -> [UInt8] {
        let endpoint = self.webPushEndpoint(webApp.id)
        var writer = JSONWriter()
        writer.object { members in
            members.member("id") { $0.string(webApp.id) }
            members.member("origin") { $0.string(webApp.origin) }
            members.member("kind") { $0.string(webApp.kind.rawValue) }
            members.member("permission") { $0.string(webApp.permission.rawValue) }
            members.member("applicationServerKey") { $0.string(webApp.applicationServerKey) }
            members.member("subscription") { writer in
                writer.object { subscription in
                    subscription.member("endpoint") { $0.string(endpoint) }
                    subscription.member("expirationTime") { $0.raw("null") }
                    subscription.member("keys") { writer in
                        writer.object { keys in
                            keys.member("p256dh") { $0.string(webApp.p256dh) }
                            keys.member("auth") { $0.string(webApp.auth) }
                        }
                    }
                }
            }
            members.member("subscribed") { $0.raw(webApp.isSubscribed ? "true" : "false") }
            members.member("subscribedAt") { $0.number(webApp.subscribedAt) }
            members.member("unsubscribedAt") { writer in webApp.unsubscribedAt.map { writer.number($0) } ?? writer.raw("null") }
            members.member("unsubscribedBecause") { $0.optionalString(webApp.unsubscribedBecause) }
            members.member("token") { $0.string(webApp.token) }
            members.member("hostToken") { $0.string(webApp.hostToken) }
            members.member("awaitingShow") { writer in writer.array(webApp.awaitingShow) { $0.string($1) } }
            members.member("unshownPushes") { $0.number(webApp.unshownPushes) }
        }
        return writer.bytes
    }
}

import APNsAuth

extension WebPushRefusal {
    /// 404: no subscription has this endpoint.
    static func unknownEndpoint(_ path: String) -> WebPushRefusal {
        WebPushRefusal(
            status: 404, reason: "BadPath",
            explanation:
                "no subscription has the endpoint \(path.prefix(80)): subscribe a web app (POST /api/v1/devices/<token>/web-apps) and push to its endpoint"
        )
    }

    /// 410: the subscription ended (unsubscribed, or WebKit ended it).
    static func gone(_ why: String) -> WebPushRefusal {
        WebPushRefusal(status: 410, reason: "Unregistered", explanation: why)
    }

    static func badRequest(_ reason: String, _ explanation: String) -> WebPushRefusal {
        WebPushRefusal(status: 400, reason: reason, explanation: explanation)
    }
}

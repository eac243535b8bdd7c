import APNsCore

/// The web inbox (`GET /` on the admin port): plain HTML, CSS and JavaScript kept beside this
/// file in `Inbox/` and compiled into the binary, so it works offline and from any directory.
enum InboxAssets {
    /// The page, with the HTTP/2 ports (the sandbox's, production's) and the CA's path filled in
    /// (for the curl commands it shows) and the fault form's suggestions: every reason APNs
    /// documents, with its status.
    static func page(http2Port: Int, productionPort: Int, caPath: String?, logout: Bool = false) -> [UInt8] {
        let reasons = Reason.all.map { #"<option value="\#($0.wire)">\#($0.status)</option>"# }.joined()
        return Array(
            String(decoding: PackageResources.index_html, as: UTF8.self)
                .replacingOccurrences(of: "{{HTTP2_PORT}}", with: String(http2Port))
                .replacingOccurrences(of: "{{PRODUCTION_PORT}}", with: String(productionPort))
                .replacingOccurrences(of: "{{CA_PATH}}", with: AdminLogin.escaped(caPath ?? "ca.pem"))
                .replacingOccurrences(of: "{{REASONS}}", with: reasons)
                .replacingOccurrences(of: "{{LOGOUT}}", with: logout ? Self.logoutForm : "").utf8)
    }

    /// An asset by its name under `/inbox/`, with its content type.
    static func asset(_ name: String) -> (body: [UInt8], contentType: String)? {
        switch name {
        case "inbox.css": (PackageResources.inbox_css, "text/css; charset=utf-8")
        case "icon.svg": (PackageResources.icon_svg, "image/svg+xml")
        default: Self.modules[name].map { ($0, "text/javascript; charset=utf-8") }
        }
    }

    /// The page's script: native ES modules, one per view and a shared core; `inbox.js` starts the page.
    static let modules: [String: [UInt8]] = [
        "activities.js": PackageResources.activities_js,
        "clock.js": PackageResources.clock_js,
        "core.js": PackageResources.core_js,
        "detail.js": PackageResources.detail_js,
        "devices.js": PackageResources.devices_js,
        "faults.js": PackageResources.faults_js,
        "inbox.js": PackageResources.inbox_js,
        "list.js": PackageResources.list_js,
        "live.js": PackageResources.live_js,
        "load.js": PackageResources.load_js,
        "phone-screen.js": PackageResources.phone_screen_js,
        "phone.js": PackageResources.phone_js,
        "providers.js": PackageResources.providers_js,
        "route.js": PackageResources.route_js,
        "search.js": PackageResources.search_js,
        "send.js": PackageResources.send_js,
        "webapps.js": PackageResources.webapps_js,
    ]

    /// The header's Log out, on an emulator that asks for its admin token.
    static let logoutForm =
        #"<form class="logout" method="post" action="/logout"><button type="submit" class="secondary" data-testid="logout">Log out</button></form>"#

    /// What the page may load: its own origin only (no CDN, no inline script or style).
    static let securityPolicy =
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

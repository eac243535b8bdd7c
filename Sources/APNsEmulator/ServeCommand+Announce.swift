import APNsServer
import Foundation

/// What `serve` says once every listener is bound: each listener, the web inbox, what a seed
/// made, the admin token and what strangers may do beyond loopback.
extension ServeCommand {
    /// Beyond loopback, says what a stranger who reaches the other ports may do (docs/security.md).
    static func announceExposure(_ configuration: EmulatorConfiguration) {
        guard !AdminAccess.isLoopback(configuration.host) else { return }
        let providers =
            configuration.auth == .none
            ? "providers need no credentials (--auth none: --auth strict asks for certificates or provider tokens, as APNs does)"
            : "providers need certificates or provider tokens (--auth strict)"
        let devices =
            configuration.devicesNeedAdminToken
            ? "devices bring the admin token"
            : "devices connect by id alone (--require-device-token asks them for the admin token)"
        say(
            "apns-emulator: listening on \(configuration.host): \(providers); \(devices). Publish only the ports you use, on a network you trust (docs/security.md)"
        )
    }

    /// Says, once, that the admin API asks for a token, and the token itself when the emulator made it.
    static func announceToken(_ token: String?, made: Bool, host: String) {
        guard let token else { return }
        if made {
            say(
                "apns-emulator: admin token: \(token) (the admin API listens on \(host), beyond this machine, so it and the web inbox ask for it: Authorization: Bearer <token>, or the inbox's login page; --admin-token chooses it)"
            )
        } else {
            say(
                "apns-emulator: the admin API and the web inbox ask for the --admin-token given (Authorization: Bearer, or the inbox's login page)"
            )
        }
    }

    /// The order a newcomer reads the listeners in: where providers push, where people look, then
    /// the rest.
    static let announcementOrder = [
        "HTTP/2 provider API", "HTTP/2 provider API, production (api.push.apple.com)", "admin API", "device listener",
        "Web Push service", "binary gateway", "feedback service",
        "channel management", "HTTP/2 provider API without TLS (h2c)",
    ]

    /// The first line: the store, the environment of the HTTP/2 port (the sandbox's, unless
    /// --environment says production), and the CA to trust (made just now, on a first start).
    static func announceStore(_ configuration: EmulatorConfiguration, madeCA: Bool) {
        let made =
            madeCA
            ? " (a development CA and a localhost server certificate made just now: trust the CA to connect without warnings)"
            : ""
        say(
            "apns-emulator: \(configuration.durability) store in \(configuration.dataDirectory), \(Self.environments(configuration)); trust \(configuration.developmentCAPath)\(made)"
        )
    }

    /// Which environments the HTTP/2 ports serve, in a few words.
    static func environments(_ configuration: EmulatorConfiguration) -> String {
        switch (configuration.environment, configuration.productionHTTP2Port) {
        case (.development, nil): "the sandbox (development) endpoint"
        case (.development, _): "the sandbox (development) and production endpoints"
        case (.production, _): "production endpoints only (--environment production)"
        }
    }

    /// An address a browser can open: a listener on every interface (0.0.0.0, ::) is reached as
    /// localhost here and by the machine's name from elsewhere.
    static func openable(_ url: String) -> String {
        for any in ["//0.0.0.0:", "//[::]:"] where url.contains(any) {
            let here = url.replacingOccurrences(of: any, with: "//localhost:")
            let name = ProcessInfo.processInfo.hostName
            guard !name.isEmpty, name != "localhost" else { return here }
            return "\(here)/ or \(url.replacingOccurrences(of: any, with: "//\(name):"))"
        }
        return url
    }

    /// One line per listener, once all are bound; the web inbox's address; what a seed made.
    static func announce(_ listeners: [(name: String, url: String)], seed: (document: SeedDocument, path: String)?) {
        let rank = { (name: String) in Self.announcementOrder.firstIndex(of: name) ?? Self.announcementOrder.count }
        for (name, url) in listeners.sorted(by: { rank($0.name) < rank($1.name) }) { say("apns-emulator: \(name) on \(url)") }
        if let admin = listeners.first(where: { $0.name == "admin API" }) {
            say("apns-emulator: web inbox at \(Self.openable(admin.url))/ (every push as it arrives, and the phone's screen)")
        }
        if let (document, path) = seed {
            let apps = document.devices.reduce(0) { $0 + $1.apps.count }
            let devices = document.devices.filter { $0.id != nil }.count
            let parts = [
                (devices, "device"), (apps, "app"), (document.keys.count, "provider key"),
                (document.certificates.count, "certificate"),
                (document.channels.count, "channel"), (document.faults.count, "fault rule"),
            ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
            say("apns-emulator: seeded from \(path): \(parts.isEmpty ? "nothing" : parts.joined(separator: ", "))")
        }
    }
}

import APNsServer
import ArgumentParser
import Foundation

/// `serve`'s admin API access: its token, and the pages and host names it admits.
struct ServeAdminAccess: ParsableArguments {
    @Option(
        name: .customLong("admin-token"),
        help:
            "The token the admin API and web inbox require (Authorization: Bearer, or the inbox's login page). Without it, an emulator whose --host is not loopback makes one at start, prints it once and writes it to --ports-file. (env: \(EnvironmentTwins.variable(for: "--admin-token")))"
    )
    var token: String?

    @Option(
        name: .customLong("admin-allowed-origins"),
        help:
            "Comma-separated origins (https://dash.example.test:8443) whose web pages may call the admin API, with the CORS they need; any other page's request is refused. (env: \(EnvironmentTwins.variable(for: "--admin-allowed-origins")))"
    )
    var allowedOrigins: String?

    @Option(
        name: .customLong("admin-allowed-hosts"),
        help:
            "Comma-separated host names the admin API answers to besides its IP addresses and localhost (.example.test for every name under it, * for any): a Host outside them is refused, against DNS rebinding. (env: \(EnvironmentTwins.variable(for: "--admin-allowed-hosts")))"
    )
    var allowedHosts: String?

    @Flag(
        name: .customLong("require-device-token"),
        help:
            "Devices must bring the admin token in their hello (apns-emulator device --admin-token), as APNs asks a device for its certificate; without it a device connects by id alone. Needs an admin token: --admin-token, or a --host beyond loopback. (env: \(EnvironmentTwins.variable(for: "--require-device-token")))"
    )
    var requireDeviceToken = false

    var origins: [String] { Self.list(self.allowedOrigins) }
    var hosts: [String] { Self.list(self.allowedHosts) }

    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validate() throws {
        if let token {
            guard !token.isEmpty, token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                throw ValidationError(
                    "--admin-token must be printable ASCII without spaces (it travels in an HTTP header); apns-emulator serve makes a good one when the flag is left out"
                )
            }
        }
        for origin in self.origins {
            guard let url = URL(string: origin), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                url.path.isEmpty || url.path == "/", url.query == nil
            else {
                throw ValidationError(
                    "--admin-allowed-origins: \(origin) is not an origin: scheme, host and port only, as a browser sends it (https://dash.example.test:8443)"
                )
            }
        }
        for host in self.hosts where host.contains("/") || host.contains(":") && !host.hasPrefix("[") {
            throw ValidationError("--admin-allowed-hosts: \(host) is not a host name: leave out the scheme and port (dash.example.test)")
        }
    }
}

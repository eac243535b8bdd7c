import APNsStore
import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `apns-emulator doctor`: what would stop `serve` from starting, found before it starts, and what
/// a provider library needs to reach it.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Check what serve needs (the CA, free ports, a writable data directory nobody holds) and print what a provider library needs.",
        discussion: """
            Takes serve's flags for where things are (and their environment-variable twins). Prints one line \
            per check, "ok", "note" or "problem", then the host, port and CA path a provider library is \
            configured with; exits 1 when a check found a problem.
            """,
        version: EmulatorVersion.string
    )

    // serve's defaults, from the one place they are written.
    @Option(help: "Address the listeners bind to.")
    var host = ServeCommand.defaults.host
    @Option(name: .customLong("http2-port")) var http2Port = ServeCommand.defaults.http2Port
    @Option(name: .customLong("production-http2-port"))
    var productionHTTP2Port = ServeCommand.defaults.productionHTTP2Port ?? 2297
    @Option(name: .customLong("admin-port")) var adminPort = ServeCommand.defaults.adminPort
    @Option(name: .customLong("device-port")) var devicePort = ServeCommand.defaults.devicePort
    @Option(name: .customLong("gateway-port")) var gatewayPort = ServeCommand.defaults.gatewayPort
    @Option(name: .customLong("feedback-port")) var feedbackPort = ServeCommand.defaults.feedbackPort
    @Option(name: .customLong("channels-port")) var channelsPort = ServeCommand.defaults.channelsPort
    @Option(name: .customLong("web-push-port")) var webPushPort = ServeCommand.defaults.webPushPort
    @Option(name: .customLong("h2c-port"), help: "(default: off)") var h2cPort: Int?
    @Option(name: .customLong("data-dir")) var dataDirectory = ServeCommand.defaults.dataDirectory
    @Option(name: .customLong("certs-dir")) var certificatesDirectory = ServeCommand.defaults.certificatesDirectory
    @OptionGroup var adminToken: AdminTokenOption

    /// One check's outcome.
    struct Finding {
        enum Level: String { case ok, note, problem }
        var level: Level
        var text: String
    }

    func run() throws {
        var findings = [self.checkCA()]
        let ports =
            [
                ("HTTP/2 provider API", self.http2Port), ("HTTP/2 provider API, production", self.productionHTTP2Port),
                ("admin API", self.adminPort), ("devices", self.devicePort),
                ("binary gateway", self.gatewayPort), ("feedback service", self.feedbackPort),
                ("channel management", self.channelsPort), ("Web Push service", self.webPushPort),
            ] + (self.h2cPort.map { [("HTTP/2 provider API without TLS (h2c)", $0)] } ?? [])
        findings += ports.map { self.checkPort(name: $0.0, port: $0.1) }
        findings.append(self.checkDataDirectory())
        if let mode = self.checkDataDirectoryMode() { findings.append(mode) }
        findings.append(self.checkAdminAccess())
        for finding in findings {
            say("\(finding.level.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))\(finding.text)")
        }
        let ca = URL(fileURLWithPath: self.certificatesDirectory + "/ca.pem").standardizedFileURL.path
        say(
            "provider libraries: host \(self.host), port \(self.http2Port) (the sandbox; production \(self.productionHTTP2Port)), CA \(ca) (the server certificate names localhost and 127.0.0.1)"
        )
        say("web inbox: http://\(self.host.contains(":") ? "[\(self.host)]" : self.host):\(self.adminPort)/ once serve runs")
        if findings.contains(where: { $0.level == .problem }) { throw ExitCode(1) }
    }

    func checkCA() -> Finding {
        let path = self.certificatesDirectory + "/ca.pem"
        guard FileManager.default.fileExists(atPath: path) else {
            return Finding(
                level: .note,
                text: "CA \(path): not there yet; serve generates a development CA and server certificate on first start")
        }
        guard let contents = FileManager.default.contents(atPath: path) else {
            return Finding(
                level: .problem, text: "CA \(path): cannot be read (permissions?); providers and devices need to trust it")
        }
        guard String(decoding: contents, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            return Finding(level: .problem, text: "CA \(path): not a PEM certificate; move it away and serve makes a new one")
        }
        return Finding(level: .ok, text: "CA \(path): readable PEM certificate")
    }

    func checkPort(name: String, port: Int) -> Finding {
        guard port != 0 else { return Finding(level: .ok, text: "\(name) port 0: a free one is picked at start") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, self.host, &address.sin_addr) == 1 else {
            return Finding(
                level: .problem, text: "\(name) port \(port): --host \(self.host) is not an IPv4 address this check can bind")
        }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            return Finding(level: .problem, text: "\(name) port \(port): no socket: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let why =
                errno == EADDRINUSE
                ? "in use (an emulator already running? curl http://\(self.host):\(self.adminPort)/healthz)"
                : String(cString: strerror(errno))
            return Finding(level: .problem, text: "\(name) port \(port) on \(self.host): \(why)")
        }
        return Finding(level: .ok, text: "\(name) port \(port) on \(self.host): free")
    }

    func checkDataDirectory() -> Finding {
        let path = self.dataDirectory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard FileManager.default.isWritableFile(atPath: parent) else {
                return Finding(
                    level: .problem, text: "data directory \(path): missing, and \(parent) is not writable to create it")
            }
            return Finding(level: .ok, text: "data directory \(path): created at first start (\(parent) is writable)")
        }
        guard isDirectory.boolValue else {
            return Finding(level: .problem, text: "data directory \(path): a file, not a directory")
        }
        let probe = path + "/.doctor-\(getpid())"
        guard FileManager.default.createFile(atPath: probe, contents: Data()) else {
            return Finding(level: .problem, text: "data directory \(path): not writable")
        }
        try? FileManager.default.removeItem(atPath: probe)
        do {
            try DataDirectoryLock.acquire(path).release()
        } catch {
            return Finding(level: .problem, text: "data directory \(path): held: \(error)")
        }
        return Finding(level: .ok, text: "data directory \(path): writable, no emulator holds it")
    }
}

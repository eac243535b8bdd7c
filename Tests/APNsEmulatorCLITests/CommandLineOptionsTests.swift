import APNsServer
import APNsStore
import ArgumentParser
import Testing

@testable import APNsEmulator

/// The command line in process (issue 39: the CLI had no tests outside subprocesses): each serve
/// setting is declared once, its environment twin and its default derived.
@Suite("Command line: settings, twins, shared options")
struct CommandLineOptionsTests {
    /// Every serve option and its twin, as users rely on them.
    static let expectedTwins: [(String, String)] = [
        ("--activity-budget", "APNS_EMULATOR_ACTIVITY_BUDGET"),
        ("--activity-frequent-budget", "APNS_EMULATOR_ACTIVITY_FREQUENT_BUDGET"),
        ("--activity-max-concurrent", "APNS_EMULATOR_ACTIVITY_MAX_CONCURRENT"),
        ("--activity-push-to-start-budget", "APNS_EMULATOR_ACTIVITY_PUSH_TO_START_BUDGET"),
        ("--admin-port", "APNS_EMULATOR_ADMIN_PORT"),
        ("--auth", "APNS_EMULATOR_AUTH"),
        ("--certs-dir", "APNS_EMULATOR_CERTS_DIR"),
        ("--channels-port", "APNS_EMULATOR_CHANNELS_PORT"),
        ("--cluster-peers", "APNS_EMULATOR_CLUSTER_PEERS"),
        ("--config", "APNS_EMULATOR_CONFIG"),
        ("--data-dir", "APNS_EMULATOR_DATA_DIR"),
        ("--device-idle-timeout", "APNS_EMULATOR_DEVICE_IDLE_TIMEOUT"),
        ("--device-port", "APNS_EMULATOR_DEVICE_PORT"),
        ("--durability", "APNS_EMULATOR_DURABILITY"),
        ("--environment", "APNS_EMULATOR_ENVIRONMENT"),
        ("--ephemeral", "APNS_EMULATOR_EPHEMERAL"),
        ("--exit-on-stdin-close", "APNS_EMULATOR_EXIT_ON_STDIN_CLOSE"),
        ("--export-on-exit", "APNS_EMULATOR_EXPORT_ON_EXIT"),
        ("--feedback-port", "APNS_EMULATOR_FEEDBACK_PORT"),
        ("--forward-to-simulator", "APNS_EMULATOR_FORWARD_TO_SIMULATOR"),
        ("--gateway-port", "APNS_EMULATOR_GATEWAY_PORT"),
        ("--h2c-port", "APNS_EMULATOR_H2C_PORT"),
        ("--handshake-timeout", "APNS_EMULATOR_HANDSHAKE_TIMEOUT"),
        ("--host", "APNS_EMULATOR_HOST"),
        ("--http2-idle-timeout", "APNS_EMULATOR_HTTP2_IDLE_TIMEOUT"),
        ("--http2-port", "APNS_EMULATOR_HTTP2_PORT"),
        ("--production-http2-port", "APNS_EMULATOR_PRODUCTION_HTTP2_PORT"),
        ("--admin-token", "APNS_EMULATOR_ADMIN_TOKEN"),
        ("--admin-allowed-origins", "APNS_EMULATOR_ADMIN_ALLOWED_ORIGINS"),
        ("--admin-allowed-hosts", "APNS_EMULATOR_ADMIN_ALLOWED_HOSTS"),
        ("--require-device-token", "APNS_EMULATOR_REQUIRE_DEVICE_TOKEN"),
        ("--retain", "APNS_EMULATOR_RETAIN"),
        ("--idle-timeout", "APNS_EMULATOR_IDLE_TIMEOUT"),
        ("--journal-size", "APNS_EMULATOR_JOURNAL_SIZE"),
        ("--keys", "APNS_EMULATOR_KEYS"),
        ("--log-level", "APNS_EMULATOR_LOG_LEVEL"),
        ("--map-size", "APNS_EMULATOR_MAP_SIZE"),
        ("--max-expiration", "APNS_EMULATOR_MAX_EXPIRATION"),
        ("--max-queued-per-device", "APNS_EMULATOR_MAX_QUEUED_PER_DEVICE"),
        ("--ports-file", "APNS_EMULATOR_PORTS_FILE"),
        ("--provider-ca", "APNS_EMULATOR_PROVIDER_CA"),
        ("--provider-exam", "APNS_EMULATOR_PROVIDER_EXAM"),
        ("--quiet", "APNS_EMULATOR_QUIET"),
        ("--seed", "APNS_EMULATOR_SEED"),
        ("--shard", "APNS_EMULATOR_SHARD"),
        ("--storage-policy", "APNS_EMULATOR_STORAGE_POLICY"),
        ("--threads", "APNS_EMULATOR_THREADS"),
        ("--tls-cert", "APNS_EMULATOR_TLS_CERT"),
        ("--tls-key", "APNS_EMULATOR_TLS_KEY"),
        ("--token-lifetime", "APNS_EMULATOR_TOKEN_LIFETIME"),
        ("--token-update-interval", "APNS_EMULATOR_TOKEN_UPDATE_INTERVAL"),
        ("--tokens", "APNS_EMULATOR_TOKENS"),
        ("--web-push-port", "APNS_EMULATOR_WEB_PUSH_PORT"),
        ("--writer-spin", "APNS_EMULATOR_WRITER_SPIN"),
    ]

    @Test("every serve option has its twin, named by rule; the twins are the ones the README and users have relied on")
    func twins() {
        let expected = Self.expectedTwins
        let derived = Dictionary(uniqueKeysWithValues: EnvironmentTwins.serve.map { ($0.flag, $0.variable) })
        for (flag, variable) in expected {
            #expect(derived[flag] == variable, "\(flag)")
        }
        #expect(derived.count == expected.count, "\(derived.keys.sorted())")
        #expect(
            EnvironmentTwins.flags == [
                "--quiet", "--ephemeral", "--exit-on-stdin-close", "--require-device-token", "--provider-exam",
            ])
    }

    @Test("a twin stands in for an absent option, not a present one; a flag's twin turns it on with 1, true or yes")
    func apply() {
        let environment = [
            "APNS_EMULATOR_HTTP2_PORT": "0", "APNS_EMULATOR_ADMIN_PORT": "9", "APNS_EMULATOR_QUIET": "yes",
            "APNS_EMULATOR_EPHEMERAL": "no", "APNS_EMULATOR_BIN": "/x",
        ]
        let arguments = EnvironmentTwins.apply(to: ["serve", "--admin-port", "1"], environment: environment)
        #expect(arguments.starts(with: ["serve", "--admin-port", "1"]))
        #expect(arguments.contains("--quiet") && !arguments.contains("--ephemeral") && !arguments.contains("9"))
        #expect(arguments.contains("--http2-port=0"))
        // push takes only where the emulator's HTTP/2 API is.
        #expect(EnvironmentTwins.apply(to: ["push"], environment: environment) == ["push", "--http2-port=0"])
        // The admin token's twin reaches the commands that call the admin API (issue 51).
        let token = ["APNS_EMULATOR_ADMIN_TOKEN": "t0k", "APNS_EMULATOR_ADMIN_PORT": "9"]
        #expect(EnvironmentTwins.apply(to: ["push"], environment: token) == ["push", "--admin-token=t0k"])
        #expect(EnvironmentTwins.apply(to: ["export"], environment: token) == ["export", "--admin-port=9", "--admin-token=t0k"])
        #expect(EnvironmentTwins.apply(to: ["doctor"], environment: token).contains("--admin-token=t0k"))
    }

    /// A base64url token starts with "-" one time in 64: the Java fixture's container then
    /// failed to start with "Missing value for '--admin-token'" (CI, 2026-11-27).
    @Test("a twin's value that starts with a dash is taken as the value, not as a flag")
    func dashValue() throws {
        let arguments = EnvironmentTwins.apply(to: ["serve"], environment: ["APNS_EMULATOR_ADMIN_TOKEN": "-x_Q9"])
        let serve = try ServeCommand.parse(Array(arguments.dropFirst()))
        #expect(serve.configuration().adminToken == "-x_Q9")
        for _ in 0..<2_000 { #expect(!AdminAccess.makeToken().hasPrefix("-")) }
    }

    @Test("serve's defaults are the configuration's: one place says 3600")
    func defaults() throws {
        let serve = try ServeCommand.parse([])
        let configured = serve.configuration()
        let defaults = EmulatorConfiguration()
        #expect(
            configured.http2Port == defaults.http2Port && configured.adminPort == defaults.adminPort
                && configured.channelsPort == defaults.channelsPort)
        #expect(configured.idleTimeout == defaults.idleTimeout && configured.http2IdleTimeout == defaults.http2IdleTimeout)
        #expect(
            configured.deviceIdleTimeout == defaults.deviceIdleTimeout && configured.handshakeTimeout == defaults.handshakeTimeout
        )
        #expect(
            configured.tokenLifetime == defaults.tokenLifetime && configured.tokenUpdateInterval == defaults.tokenUpdateInterval)
        #expect(
            configured.mapSizeBytes == defaults.mapSizeBytes
                && configured.maximumExpirationSeconds == defaults.maximumExpirationSeconds)
        #expect(configured.journalSize == defaults.journalSize && configured.retention == defaults.retention)
        // Apple's behaviour by default (issue 69): one stored notification per app while offline, and
        // a Web Push service whose endpoints stay put across restarts.
        #expect(configured.storagePolicy == .latest && defaults.storagePolicy == .latest)
        #expect(configured.webPushPort == 2199 && defaults.webPushPort == 2199)
        #expect(configured.dataDirectory == defaults.dataDirectory && configured.keysDirectory == defaults.keysDirectory)
        #expect(
            configured.durability == defaults.durability && configured.auth == defaults.auth
                && configured.environment == defaults.environment)
    }

    @Test("bad values are refused naming the option")
    func validation() {
        for (arguments, words) in [
            (["--http2-port", "70000"], "--http2-port must be between 0 and 65535"),
            (["--idle-timeout", "0"], "--idle-timeout must be longer than 0"),
            (["--handshake-timeout", "2h"], "--handshake-timeout must be above 0 and at most 1h"),
            (["--cluster-peers", "a:1"], "--cluster-peers needs --shard"),
            (["--log-level", "loud"], "--log-level must be one of"),
            (["--retain", "1000,forever"], #"--retain: "forever" is not a count (500000), a size (512MiB, 2GiB) or an age"#),
        ] {
            #expect("\(arguments)") { try ServeCommand.parse(arguments) } throws: { error in
                ServeCommand.message(for: error).contains(words)
            }
            #expect(ServeCommand.message(for: ValidationError("x")) == "x")
        }
    }

    @Test("issue 50: durations as people write them, on the command line and in --help; serve's help in a newcomer's order")
    func durations() throws {
        let serve = try ServeCommand.parse([
            "--idle-timeout", "90m", "--max-expiration", "12h", "--token-lifetime", "1800", "--handshake-timeout", "250ms",
        ])
        let configured = serve.configuration()
        #expect(configured.idleTimeout == .seconds(5400) && configured.maximumExpirationSeconds == 43_200)
        let retained = try ServeCommand.parse(["--retain", "250000,512MiB,7d"]).configuration().retention
        #expect(retained == Retention(count: 250_000, bytes: 512 << 20, age: .seconds(7 * 86_400)))
        #expect(configured.tokenLifetime == .seconds(1800) && configured.handshakeTimeout == .milliseconds(250))
        let help = ServeCommand.helpMessage(columns: 10_000)
        for shown in ["--idle-timeout <idle-timeout>", "--max-expiration <max-expiration>"] {
            let line = help.split(separator: "\n").first { $0.contains(shown) } ?? ""
            #expect(!line.contains(".0)"), "\(line)")
        }
        #expect(help.contains("(default: 1h)") && help.contains("(default: 30d)") && help.contains("(default: 20m)"))
        let sections = help.split(separator: "\n").filter { $0.first?.isUppercase == true && $0.hasSuffix(":") }.map(String.init)
        #expect(
            sections == [
                "ADDRESS AND PORTS:", "STORE AND AUTHENTICATION:", "ADMIN API ACCESS:", "MORE FRONT DOORS:", "LIVE ACTIVITIES:",
                "OPTIONS:",
            ],
            "\(sections)")
        #expect(DurationArgument.text(.milliseconds(1500)) == "1500ms" && DurationArgument.text(.seconds(90)) == "90s")
    }

    @Test("issue 50: a misspelt command names the nearest; any other word names the commands")
    func misspeltCommand() {
        #expect(
            APNsEmulatorCommand.unknownCommand(["pushh", "--token", "ab"])?.hasPrefix("no command pushh: did you mean push? ")
                == true)
        #expect(APNsEmulatorCommand.unknownCommand(["sevre"])?.contains("did you mean serve?") == true)
        let far = APNsEmulatorCommand.unknownCommand(["frobnicate"]) ?? ""
        #expect(!far.contains("did you mean") && far.contains("the commands are serve, push"), "\(far)")
        #expect(
            APNsEmulatorCommand.unknownCommand(["push", "x"]) == nil
                && APNsEmulatorCommand.unknownCommand(["--http2-port", "1"]) == nil)
    }

    @Test("push and channels share the connection options: the same flags, defaults and refusals")
    func sharedConnection() throws {
        let token = String(repeating: "ab", count: 32)
        let push = try PushCommand.parse(["--token", token, "--topic", "com.example", #"{"aps":{}}"#])
        let channels = try ChannelsCommand.parse(["list", "--bundle", "com.example"])
        for connection in [push.connection, channels.connection] {
            #expect(connection.host == "127.0.0.1" && connection.http2Port == 2197 && connection.caPath == "certs/ca.pem")
        }
        let partial = ["--key", "AuthKey.p8", "--key-id", "ABC"]
        for parse in [
            { try PushCommand.parse(["--token", token, "--topic", "t", "{}"] + partial) as Any },
            { try ChannelsCommand.parse(["list", "--bundle", "b"] + partial) as Any },
        ] {
            do {
                _ = try parse()
                Issue.record("a key without a team id was taken")
            } catch {
                #expect(PushCommand.message(for: error).contains("--key, --key-id and --team-id together"))
            }
        }
        let both = ["--key", "k.p8", "--key-id", "ABC", "--team-id", "T", "--cert", "c.pem"]
        #expect {
            try ChannelsCommand.parse(["list", "--bundle", "b"] + both)
        } throws: { error in
            ChannelsCommand.message(for: error) == "use --key (token) or --cert (certificate) authentication, not both"
        }
    }
}

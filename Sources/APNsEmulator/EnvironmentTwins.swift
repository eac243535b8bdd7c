import Foundation

/// Every `serve` flag's environment-variable twin, in one table.
///
/// A twin that is set stands in for its flag when the flag is not on the command line, so it is
/// parsed and checked exactly like the flag.
enum EnvironmentTwins {
    static let serve: [(flag: String, variable: String)] = [
        ("--host", "APNS_EMULATOR_HOST"),
        ("--http2-port", "APNS_EMULATOR_HTTP2_PORT"),
        ("--admin-port", "APNS_EMULATOR_ADMIN_PORT"),
        ("--device-port", "APNS_EMULATOR_DEVICE_PORT"),
        ("--gateway-port", "APNS_EMULATOR_GATEWAY_PORT"),
        ("--feedback-port", "APNS_EMULATOR_FEEDBACK_PORT"),
        ("--channels-port", "APNS_EMULATOR_CHANNELS_PORT"),
        ("--idle-timeout", "APNS_EMULATOR_IDLE_TIMEOUT"),
        ("--handshake-timeout", "APNS_EMULATOR_HANDSHAKE_TIMEOUT"),
        ("--http2-idle-timeout", "APNS_EMULATOR_HTTP2_IDLE_TIMEOUT"),
        ("--device-idle-timeout", "APNS_EMULATOR_DEVICE_IDLE_TIMEOUT"),
        ("--data-dir", "APNS_EMULATOR_DATA_DIR"),
        ("--certs-dir", "APNS_EMULATOR_CERTS_DIR"),
        ("--tls-cert", "APNS_EMULATOR_TLS_CERT"),
        ("--tls-key", "APNS_EMULATOR_TLS_KEY"),
        ("--durability", "APNS_EMULATOR_DURABILITY"),
        ("--map-size", "APNS_EMULATOR_MAP_SIZE"),
        ("--tokens", "APNS_EMULATOR_TOKENS"),
        ("--shard", "APNS_EMULATOR_SHARD"),
        ("--cluster-peers", "APNS_EMULATOR_CLUSTER_PEERS"),
        ("--storage-policy", "APNS_EMULATOR_STORAGE_POLICY"),
        ("--max-queued-per-device", "APNS_EMULATOR_MAX_QUEUED_PER_DEVICE"),
        ("--max-expiration", "APNS_EMULATOR_MAX_EXPIRATION"),
        ("--delivered-log-size", "APNS_EMULATOR_DELIVERED_LOG_SIZE"),
        ("--journal-size", "APNS_EMULATOR_JOURNAL_SIZE"),
        ("--environment", "APNS_EMULATOR_ENVIRONMENT"),
        ("--auth", "APNS_EMULATOR_AUTH"),
        ("--provider-ca", "APNS_EMULATOR_PROVIDER_CA"),
        ("--keys", "APNS_EMULATOR_KEYS"),
        ("--token-lifetime", "APNS_EMULATOR_TOKEN_LIFETIME"),
        ("--token-update-interval", "APNS_EMULATOR_TOKEN_UPDATE_INTERVAL"),
        ("--threads", "APNS_EMULATOR_THREADS"),
        ("--writer-spin", "APNS_EMULATOR_WRITER_SPIN"),
        ("--log-level", "APNS_EMULATOR_LOG_LEVEL"),
        ("--quiet", "APNS_EMULATOR_QUIET"),
        ("--ports-file", "APNS_EMULATOR_PORTS_FILE"),
        ("--ephemeral", "APNS_EMULATOR_EPHEMERAL"),
        ("--forward-to-simulator", "APNS_EMULATOR_FORWARD_TO_SIMULATOR"),
        ("--config", "APNS_EMULATOR_CONFIG"),
        ("--activity-max-concurrent", "APNS_EMULATOR_ACTIVITY_MAX_CONCURRENT"),
        ("--activity-budget", "APNS_EMULATOR_ACTIVITY_BUDGET"),
        ("--activity-frequent-budget", "APNS_EMULATOR_ACTIVITY_FREQUENT_BUDGET"),
        ("--activity-push-to-start-budget", "APNS_EMULATOR_ACTIVITY_PUSH_TO_START_BUDGET"),
    ]

    /// Twins of flags without a value.
    static let flags: Set<String> = ["--quiet", "--ephemeral"]

    /// The variable that stands in for `flag`, for help texts.
    static func variable(for flag: String) -> String {
        self.serve.first { $0.flag == flag }?.variable ?? ""
    }

    /// The twins `device` shares with `serve`: where the emulator is.
    static let device = serve.filter { $0.flag == "--host" || $0.flag == "--device-port" }

    /// The twins `push` shares with `serve`: where the emulator's HTTP/2 API is.
    static let push = serve.filter { $0.flag == "--host" || $0.flag == "--http2-port" }

    /// The twins `doctor` shares with `serve`: where everything it checks is.
    static let doctor = serve.filter { $0.flag.hasSuffix("-port") || ["--host", "--data-dir", "--certs-dir"].contains($0.flag) }

    /// `arguments` plus `--flag value` for each twin set in `environment` whose flag is absent,
    /// for `serve` (named or implied) and `device`; other subcommands take their arguments as given.
    static func apply(to arguments: [String], environment: [String: String]) -> [String] {
        let twins: [(flag: String, variable: String)]
        switch arguments.first {
        case "device": twins = self.device
        case "push": twins = self.push
        case "doctor": twins = self.doctor
        case "serve", nil: twins = self.serve
        case let first? where first.hasPrefix("-"): twins = self.serve
        default: return arguments
        }
        var result = arguments
        for twin in twins {
            guard let value = environment[twin.variable], !value.isEmpty else { continue }
            let present = arguments.contains { $0 == twin.flag || $0.hasPrefix(twin.flag + "=") }
            guard !present else { continue }
            if self.flags.contains(twin.flag) {
                // A flag's twin turns it on with 1, true or yes.
                if ["1", "true", "yes"].contains(value.lowercased()) { result.append(twin.flag) }
            } else {
                result += [twin.flag, value]
            }
        }
        return result
    }
}

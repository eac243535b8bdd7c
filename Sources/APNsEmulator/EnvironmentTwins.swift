import Foundation

/// Every `serve` option's environment-variable twin, derived: the options are those `serve`
/// declares (read from its help, so an option added there has a twin without another line
/// anywhere), each variable `APNS_EMULATOR_` and the option's name in capitals (`--http2-port`:
/// `APNS_EMULATOR_HTTP2_PORT`).
///
/// A twin that is set stands in for its flag when the flag is not on the command line, so it is
/// parsed and checked exactly like the flag.
enum EnvironmentTwins {
    /// One option `serve` declares: its name and whether it takes a value.
    struct Option: Equatable {
        var flag: String
        var takesValue: Bool
    }

    /// The options of `serve`'s help (`--help` and `--version` are not settings).
    static let serveOptions: [Option] = options(inHelp: ServeCommand.helpMessage(columns: 10_000))

    static let serve: [(flag: String, variable: String)] = serveOptions.map { ($0.flag, variable(for: $0.flag)) }

    /// Twins of flags without a value.
    static let flags: Set<String> = Set(serveOptions.filter { !$0.takesValue }.map(\.flag))

    /// The options a command's help lists: each line that starts with one (`  --host <host>`,
    /// `  -q, --quiet`).
    static func options(inHelp help: String) -> [Option] {
        var options: [Option] = []
        for line in help.split(separator: "\n") {
            var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
            guard line.hasPrefix("  "), let first = words.first, first.hasPrefix("-") else { continue }
            if !first.hasPrefix("--") {
                // `-q, --quiet`: the long name follows the short one.
                words = words.dropFirst()
            }
            guard let name = words.first.map({ String($0.hasSuffix(",") ? $0.dropLast() : $0) }), name.hasPrefix("--"),
                !["--help", "--version"].contains(name), !options.contains(where: { $0.flag == name })
            else { continue }
            options.append(Option(flag: name, takesValue: words.dropFirst().first?.hasPrefix("<") == true))
        }
        return options
    }

    /// The variable that stands in for `flag`.
    static func variable(for flag: String) -> String {
        "APNS_EMULATOR_" + flag.drop { $0 == "-" }.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The twins `device` shares with `serve`: where the emulator is.
    static let device = serve.filter { ["--host", "--device-port", "--admin-token"].contains($0.flag) }

    /// The twins `push` shares with `serve`: where the emulator's HTTP/2 API is, and the admin
    /// token it asks the phone's outcome with.
    static let push = serve.filter { ["--host", "--http2-port", "--admin-token"].contains($0.flag) }

    /// The twins `doctor` shares with `serve`: where everything it checks is.
    static let doctor = serve.filter {
        $0.flag.hasSuffix("-port") || ["--host", "--data-dir", "--certs-dir", "--admin-token"].contains($0.flag)
    }

    /// The twins `export` shares with `serve`: the admin API's port and token.
    static let export = serve.filter { ["--admin-port", "--admin-token"].contains($0.flag) }

    /// `arguments` plus `--flag=value` for each twin set in `environment` whose flag is absent,
    /// for `serve` (named or implied) and `device`; other subcommands take their arguments as given.
    static func apply(to arguments: [String], environment: [String: String]) -> [String] {
        let twins: [(flag: String, variable: String)]
        switch arguments.first {
        case "device": twins = self.device
        case "push": twins = self.push
        case "doctor": twins = self.doctor
        case "export": twins = self.export
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
                // One word, `--flag=value`: a value that starts with a dash (a base64url token
                // may) would otherwise be read as a flag, and the option as missing its value.
                result.append(twin.flag + "=" + value)
            }
        }
        return result
    }
}

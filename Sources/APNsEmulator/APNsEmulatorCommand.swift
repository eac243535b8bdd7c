import ArgumentParser
import Foundation

/// `apns-emulator`: with no subcommand, `serve`.
@main
struct APNsEmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-emulator",
        abstract: "A store-and-forward emulator of the Apple Push Notification service.",
        version: EmulatorVersion.string,
        subcommands: [
            ServeCommand.self, PushCommand.self, ChannelsCommand.self, DeviceCommand.self, CertsCommand.self, KeysCommand.self,
            DoctorCommand.self, ClusterCommand.self, ExportCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    static func main() async {
        let arguments = EnvironmentTwins.apply(
            to: Array(CommandLine.arguments.dropFirst()),
            environment: ProcessInfo.processInfo.environment
        )
        if let mistake = Self.unknownCommand(arguments) {
            FileHandle.standardError.write(Data("Error: \(mistake)\n".utf8))
            Foundation.exit(64)
        }
        do {
            var command = try self.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            self.exit(withError: error)
        }
    }
}

extension APNsEmulatorCommand {
    /// The commands, as typed.
    static var commandNames: [String] { Self.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"] }

    /// A first word that is no command (`pushh`): serve, the default, takes no such word, so it is a
    /// misspelt command; the message names the nearest one. Nil for anything else.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-"), !Self.commandNames.contains(word) else { return nil }
        let scored = Self.commandNames.map { ($0, Self.distance(Array(word.lowercased()), Array($0))) }.min { $0.1 < $1.1 }
        let hint = scored.flatMap { $0.1 <= max(2, word.count / 3) ? "did you mean \($0.0)? " : nil } ?? ""
        return "no command \(word): \(hint)the commands are \(Self.commandNames.dropLast().joined(separator: ", ")) (apns-emulator --help)"
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() { current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))) }
            previous = current
        }
        return previous[b.count]
    }
}

/// Writes a line to standard output at once (unbuffered), so scripts reading it see it immediately.
/// A reader that went away (`| head -2`) is not an error of the command's: the line is dropped
/// (`write(_:)` would trap on the broken pipe).
func say(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}

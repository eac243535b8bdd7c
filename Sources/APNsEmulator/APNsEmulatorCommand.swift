import APNsCore
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
            DoctorCommand.self, ClusterCommand.self, ExportCommand.self, ReportCommand.self,
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
        let hint = NearestWord.nearest(word, in: Self.commandNames).map { "did you mean \($0)? " } ?? ""
        return "no command \(word): \(hint)the commands are \(Self.commandNames.dropLast().joined(separator: ", ")) (apns-emulator --help)"
    }
}

/// Writes a line to standard output at once (unbuffered), so scripts reading it see it immediately.
/// A reader that went away (`| head -2`) is not an error of the command's: the line is dropped
/// (`write(_:)` would trap on the broken pipe).
func say(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}

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

/// Writes a line to standard output at once (unbuffered), so scripts reading it see it immediately.
/// A reader that went away (`| head -2`) is not an error of the command's: the line is dropped
/// (`write(_:)` would trap on the broken pipe).
func say(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}

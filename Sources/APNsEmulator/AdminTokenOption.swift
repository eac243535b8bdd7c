import APNsCore
import APNsServer
import ArgumentParser
import Foundation

/// `--admin-token` for the commands that talk to a running emulator (`push`, `export`, `doctor`,
/// `device`): one declaration, its twin and its default said once.
struct AdminTokenOption: ParsableArguments {
    @Option(
        name: .customLong("admin-token"),
        help:
            "The emulator's admin token, which it asks for beyond loopback or with serve --admin-token (default: the one an emulator on this machine left for the port this command uses). (env: \(EnvironmentTwins.variable(for: "--admin-token")))"
    )
    var value: String?
}

import APNsServer
import Foundation

/// Runs `body` with an emulator started for it, and stops the emulator when `body` returns or
/// throws: a test that fails part-way leaves nothing running. The emulator's directory (data,
/// certificates, keys) is removed afterwards unless the test gave it: `directory` reuses a
/// data directory (a restart), and stays the test's. `configure` changes anything in the
/// configuration.
public func withEmulator(
    directory: TemporaryDirectory? = nil,
    configure: (inout EmulatorConfiguration) -> Void = { _ in },
    _ body: (RunningEmulator) async throws -> Void
) async throws {
    let emulator = try await RunningEmulator.start(directory: directory, configure: configure)
    do {
        try await body(emulator)
    } catch {
        // The test's own failure is the one to report; the emulator is stopped regardless.
        try? await emulator.stop()
        if directory == nil { try? emulator.directory.remove() }
        throw error
    }
    try await emulator.stop()
    if directory == nil { try emulator.directory.remove() }
}

import APNsDevice
import APNsDeviceClient
import Foundation

/// `apns-emulator device --service-extension CMD`: the device is its app's notification service
/// extension. Each `extend` runs the command with the content on standard input; what it prints
/// goes back as `extended`; when it fails, an empty reply, so that the phone shows the original at
/// once, as iOS does when an extension crashes.
extension DeviceCommand {
    static func extend(_ uniqueID: String, _ content: ExtensionContent, command: String, client: DeviceClient) {
        let input = content.json + [0x0A]
        // A command that does not read its input must not take this process down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        Thread.detachNewThread {
            func reply(_ bytes: [UInt8]) { Task { try? await client.extended(uniqueID, content: bytes) } }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            let (stdin, stdout) = (Pipe(), Pipe())
            (process.standardInput, process.standardOutput) = (stdin, stdout)
            do {
                try process.run()
                try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
                try? stdin.fileHandleForWriting.close()
            } catch {
                sayError("service extension: could not run \(command): \(error)")
                return reply([])
            }
            let output = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                sayError("service extension: \(command) failed (status \(process.terminationStatus)) for \(uniqueID)")
                return reply([])
            }
            reply(Array(output))
        }
    }
}

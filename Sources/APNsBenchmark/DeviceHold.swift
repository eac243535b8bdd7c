import APNsDeviceClient
import Dispatch
import Foundation

/// Connects devices and holds them, so a script can read what each connection costs the
/// processes it passes through (memory from /proc, CPU for the handshakes).
///
///   swift run -c release APNsBenchmark hold HOST PORT CA.pem COUNT [SERVER-NAME]
///
/// Prints `held COUNT devices in S s` once every device has connected over TLS and registered
/// a token, then holds them until standard input ends.
enum DeviceHold {
    nonisolated static func run(_ arguments: [String]) async throws {
        guard arguments.count >= 4, let port = Int(arguments[1]), let count = Int(arguments[3]) else {
            print("usage: APNsBenchmark hold HOST PORT CA.pem COUNT [SERVER-NAME]")
            exit(2)
        }
        let (host, ca, serverName) = (arguments[0], arguments[2], arguments.count > 4 ? arguments[4] : "localhost")
        let started = DispatchTime.now().uptimeNanoseconds
        let devices = try await withThrowingTaskGroup(of: [DeviceClient].self) { group in
            for batch in stride(from: 0, to: count, by: 50) {
                group.addTask {
                    var connected: [DeviceClient] = []
                    for n in batch..<min(batch + 50, count) {
                        let device = try await DeviceClient.connect(
                            host: host, port: port, caPath: ca, deviceID: "hold-\(n)", serverName: serverName)
                        _ = try await device.register(topic: "com.example.hold")
                        connected.append(device)
                    }
                    return connected
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        print("held \(devices.count) devices in \(String(format: "%.2f", seconds)) s")
        fflush(nil)
        while readLine() != nil {}
        for device in devices { try? await device.close() }
    }
}

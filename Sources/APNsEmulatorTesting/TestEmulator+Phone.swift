import APNsCore
import APNsDevice
import Foundation

extension TestEmulator {
    /// The app's notification service extension, for alerts with `mutable-content: 1`: a
    /// `command` run with the content as JSON on standard input (it prints the content to show),
    /// or a `url` the content is posted to; `timeout` on the emulator's clock (`30s` when nil).
    /// Neither removes it. Each presentation says what it did (`Presentation.serviceExtension`).
    public func setServiceExtension(
        token: String, command: String? = nil, url: String? = nil, timeout: String? = nil
    )
        async throws
    {
        var members: [String] = []
        if let command { members.append(#""command": \#(Self.quoted(command))"#) }
        if let url { members.append(#""url": \#(Self.quoted(url))"#) }
        if let timeout { members.append(#""timeout": \#(Self.quoted(timeout))"#) }
        let body = #"{"serviceExtension": \#(members.isEmpty ? "null" : "{" + members.joined(separator: ", ") + "}")}"#
        let answer = try await self.admin("/api/v1/devices/\(token)/app", method: "PUT", body: body)
        guard answer.status == 200 else { throw TestEmulatorError(message: "serviceExtension: \(answer.status) \(answer.text)") }
    }

    /// How the phone presented notification `uniqueID`, once it has (an app's service extension
    /// may take a while); a ``TestEmulatorError`` saying where it is when `timeout` passes first.
    public func presentation(of uniqueID: String, timeout: Duration = .seconds(10)) async throws -> Presentation {
        let deadline = ContinuousClock.now + timeout
        while true {
            let answer = try await self.admin("/api/v1/notifications/\(uniqueID)")
            let item = JSONValue.parse(answer.body)
            if let presentation = item?["presentation"], presentation != .null {
                return try JSONDecoder().decode(Presentation.self, from: Data(presentation.compact))
            }
            guard ContinuousClock.now < deadline else {
                let outcome = item?["phoneOutcome"]?["text"]?.string ?? "\(answer.status) \(answer.text)"
                throw TestEmulatorError(message: "\(uniqueID) was not presented within \(timeout): \(outcome)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

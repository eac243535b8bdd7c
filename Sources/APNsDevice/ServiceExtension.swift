import APNsCore
import Foundation

/// An app's notification service extension (`UNNotificationServiceExtension`): what the emulator
/// runs in its place for an alert with `mutable-content: 1`. Sources: Apple,
/// UNNotificationServiceExtension ("approximately 30 seconds to modify the content") and
/// "Modifying content in newly delivered notifications" (only for notifications the system
/// displays as an alert).
public struct ServiceExtension: Hashable, Sendable, Codable {
    /// Where the extension runs.
    public enum Kind: Hashable, Sendable {
        /// A command run with `/bin/sh -c`: the content on standard input, the reply on standard output.
        case command(String)
        /// An `http://` URL the content is posted to; the answer's body is the reply.
        case url(String)
        /// The device connected over the device protocol answers (`device --service-extension`).
        case device
    }

    public var kind: Kind
    /// How long it may take, on the emulator's clock; past it iOS calls
    /// `serviceExtensionTimeWillExpire` and shows the original content.
    public var timeoutMillis: Int64

    /// The system's time budget.
    public static let defaultTimeoutMillis: Int64 = 30_000

    public init(_ kind: Kind, timeoutMillis: Int64 = Self.defaultTimeoutMillis) {
        self.kind = kind
        self.timeoutMillis = timeoutMillis
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case command, url, device, timeout }

    /// `{"command": "..."}`, `{"url": "http://..."}` or `{"device": true}`, with `"timeout"`
    /// (`30s`, `500ms`; 30 s when absent).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "serviceExtension")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let command = try container.decodeIfPresent(String.self, forKey: .command)
        let url = try container.decodeIfPresent(String.self, forKey: .url)
        let device = try container.decodeIfPresent(Bool.self, forKey: .device) ?? false
        let given = [command != nil, url != nil, device].filter { $0 }.count
        guard given == 1 else {
            throw DeviceModelError(
                .invalid, field: "serviceExtension",
                "serviceExtension takes exactly one of command (run by the emulator), url (posted to) or device: true (the connected device answers)"
            )
        }
        if let command {
            guard !command.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw DeviceModelError(.invalid, field: "serviceExtension.command", "serviceExtension.command is empty")
            }
            self.kind = .command(command)
        } else if let url {
            guard url.hasPrefix("http://"), let parsed = URL(string: url), !(parsed.host ?? "").isEmpty else {
                throw DeviceModelError(
                    .invalid, field: "serviceExtension.url",
                    "serviceExtension.url \(url) is not an http:// URL with a host (the emulator posts plain HTTP, as to a local test server)"
                )
            }
            self.kind = .url(url)
        } else {
            self.kind = .device
        }
        self.timeoutMillis = Self.defaultTimeoutMillis
        if let text = try container.decodeIfPresent(String.self, forKey: .timeout) {
            guard let duration = DurationText.parse(text), duration > .zero, duration <= .seconds(3600) else {
                throw DeviceModelError(
                    .invalid, field: "serviceExtension.timeout",
                    "serviceExtension.timeout \(text) is not a duration from 1ms to 1h such as 30s or 500ms")
            }
            self.timeoutMillis = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self.kind {
        case .command(let command): try container.encode(command, forKey: .command)
        case .url(let url): try container.encode(url, forKey: .url)
        case .device: try container.encode(true, forKey: .device)
        }
        try container.encode(DurationText.text(millis: self.timeoutMillis), forKey: .timeout)
    }

    /// Whether only the admin API and the seed may set it: a command runs on the emulator's
    /// machine and a URL makes it post anywhere, so a device may declare only itself.
    public var needsAdmin: Bool {
        if case .device = self.kind { return false }
        return true
    }
}

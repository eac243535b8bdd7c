import APNsWire
import NIOCore

/// Where each kind of request belongs, by the ports the listeners are bound to: what a refusal at
/// the wrong door tells the provider, the log and the journal, so that a client pointed at the
/// wrong port learns which one it wanted.
struct FrontDoors: Sendable {
    let readiness: ReadinessGate

    /// The port `front` is bound to ("?" before it is).
    func port(_ front: ListeningAddresses.Front) -> String {
        self.readiness.address(front)?.port.map(String.init) ?? "?"
    }

    /// Where a push goes.
    var pushes: String { "pushes (/3/device/<token>) belong on the HTTP/2 provider API, port \(self.port(.http2))" }

    /// Where the legacy binary interface's commands go.
    var binaryCommands: String {
        "binary commands belong on the binary gateway, port \(self.port(.gateway)), over TLS without ALPN"
    }

    /// What the gateway tells of a frame it could not read (status 128).
    func malformedBinary(_ detail: String, port: Int?) -> String {
        "the binary gateway (port \(port.map(String.init) ?? "?")) could not read a command (\(detail))"
    }

    /// What the gateway tells of another protocol's bytes (status 128): where they belong.
    func foreignAtGateway(_ other: ForeignProtocol, port: Int?) -> String {
        let here = "the binary gateway (port \(port.map(String.init) ?? "?")) got \(other)"
        switch other {
        case .http2Preface:
            return "\(here), from a client that did not offer ALPN h2: \(self.pushes); \(self.channelManagement)"
        case .http1:
            return "\(here): the admin API (HTTP/1.1) is on port \(self.port(.admin)); \(self.pushes)"
        }
    }

    /// What an HTTP/2 door says of a client that did not open with HTTP/2's connection preface.
    func notHTTP2(_ bytes: ByteBuffer, port: Int?) -> String {
        let here = "port \(port.map(String.init) ?? "?") speaks HTTP/2 only"
        if let first = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self), first <= 2 {
            return "\(here) and got what looks like binary command \(first): \(self.binaryCommands)"
        }
        if let other = ForeignProtocol.recognise(bytes), case .http1 = other {
            return "\(here) and got \(other): the admin API (HTTP/1.1) is on port \(self.port(.admin)); "
                + "a provider must speak HTTP/2 from its first bytes (ALPN h2)"
        }
        return "\(here) and the client did not open with HTTP/2's connection preface"
    }

    /// What the device listener says of a client that spoke another protocol (`what`): a
    /// provider at the wrong door.
    func notDeviceProtocol(_ what: ForeignProtocol, port: Int?) -> String {
        "the device listener (port \(port.map(String.init) ?? "?")) speaks the emulator's device protocol "
            + "(docs/device-protocol.md), and got \(what): \(self.pushes); the admin API (HTTP/1.1) is on port \(self.port(.admin))"
    }

    /// What a binary listener in strict mode says of a connection without a usable certificate:
    /// the binary interface knows no provider tokens.
    func certificateRequired(_ problem: String) -> String {
        "\(problem); the binary interface authenticates providers by client certificate only. "
            + "A provider token needs HTTP/2: \(self.pushes); \(self.channelManagement)"
    }

    /// Where channel management goes.
    var channelManagement: String {
        "channel management (/1/apps/<bundle id>/channels) belongs on port \(self.port(.channels)) or \(self.port(.http2)), "
            + "or on ports \(self.port(.gateway)) and \(self.port(.feedback)) with ALPN h2 as Apple serves it"
    }
}

import NIOCore

/// Another protocol's first bytes, when a client that speaks it reaches a door that speaks a
/// different one: an HTTP/2 client at the binary gateway without ALPN h2, an HTTP/1 request at a
/// TLS port, a provider at the device port. Recognised from the bytes only; the door says where
/// the client belongs.
public enum ForeignProtocol: Hashable, Sendable, CustomStringConvertible {
    /// HTTP/2's connection preface (RFC 9113 §3.4), or as much of it as arrived.
    case http2Preface
    /// An HTTP/1 request line's method.
    case http1(method: String)

    /// What `buffer`'s first bytes are, if they are one of these.
    public static func recognise(_ buffer: ByteBuffer) -> ForeignProtocol? {
        let start = buffer.getBytes(at: buffer.readerIndex, length: min(buffer.readableBytes, 24)) ?? []
        let text = String(decoding: start, as: UTF8.self)
        let preface = "PRI * HTTP/2.0"
        if !text.isEmpty && (text.hasPrefix(preface) || preface.hasPrefix(text)) { return .http2Preface }
        let methods = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"]
        return methods.first { text.hasPrefix($0 + " ") }.map { .http1(method: $0) }
    }

    public var description: String {
        switch self {
        case .http2Preface: "an HTTP/2 connection preface"
        case .http1(let method): "an HTTP/1 request (\(method))"
        }
    }
}

import APNsCore
import APNsWire
import CNGHTTP2
import NIOCore

/// A part of a request as the connection hands it to ``ProviderStreamsHandler``: its header block
/// read into a request (with the header list size the client sent, RFC 9113 section 6.5.2), or a
/// chunk of its body.
struct ProviderRequestPart {
    enum Payload {
        case headers(PushRequest, listSize: Int, endStream: Bool)
        case body(ByteBuffer, endStream: Bool)
    }

    let stream: Int32
    let payload: Payload

    init(stream: Int32, _ payload: Payload) {
        self.stream = stream
        self.payload = payload
    }
}

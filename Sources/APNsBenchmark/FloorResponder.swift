import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// Answers each request when its body has ended, and keeps the connection window as open as the
/// emulator keeps it (8 MiB, topped up at half).
final class FloorResponder: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private static let window = 8 << 20
    private var received = 0
    private var opened = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = self.unwrapInboundIn(data)
        if !self.opened {
            self.opened = true
            let update = HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: Self.window - 65_535))
            context.write(self.wrapOutboundOut(update), promise: nil)
        }
        let ended: Bool
        switch frame.payload {
        case .headers(let headers): ended = headers.endStream
        case .data(let data):
            ended = data.endStream
            self.received += data.data.readableBytes
            if self.received >= Self.window / 2 {
                let update = HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: self.received))
                context.write(self.wrapOutboundOut(update), promise: nil)
                self.received = 0
            }
        default: ended = false
        }
        guard ended else { return }
        let headers: HPACKHeaders = [":status": "200", "apns-id": UUID().uuidString]
        let answer = HTTP2Frame(streamID: frame.streamID, payload: .headers(.init(headers: headers, endStream: true)))
        context.write(self.wrapOutboundOut(answer), promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }
}

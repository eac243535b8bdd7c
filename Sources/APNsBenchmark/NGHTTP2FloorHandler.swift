import CNGHTTP2
import Foundation
import NIOCore

/// One connection's nghttp2 server session: each read goes to `nghttp2_session_mem_recv`, a
/// request whose stream ended is answered from the frame callback, and what the session has to
/// send is drained into one buffer, written once per read burst. On the channel's event loop.
final class NGHTTP2FloorHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var session: OpaquePointer?
    private var failed = false

    init() throws {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            throw FloorError("nghttp2_session_callbacks_new failed")
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { session, frame, _ in
            guard let session, let frame else { return 0 }
            let header = frame.pointee.hd
            let isRequest = header.type == UInt8(NGHTTP2_HEADERS.rawValue) || header.type == UInt8(NGHTTP2_DATA.rawValue)
            guard isRequest, header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0 else { return 0 }
            return NGHTTP2FloorHandler.answer(session, stream: header.stream_id)
        }
        var session: OpaquePointer?
        guard nghttp2_session_server_new(&session, callbacks, nil) == 0, let session else {
            throw FloorError("nghttp2_session_server_new failed")
        }
        self.session = session
        // APNs' SETTINGS, and a connection window opened to 8 MiB at once, as the emulator does.
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: 1000),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_HEADER_TABLE_SIZE.rawValue), value: 4096),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 65_535),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue), value: 16_384),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: 8000),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 8 << 20)
    }

    deinit {
        nghttp2_session_del(self.session)
    }

    static let status = Array(":status".utf8)
    static let ok = Array("200".utf8)
    static let apnsID = Array("apns-id".utf8)

    /// Submits `200` with a fresh `apns-id`, never indexed: a random value in HPACK's table would
    /// cost the encoder a search per response and help no later one.
    static func answer(_ session: OpaquePointer, stream: Int32) -> Int32 {
        var id = Array(UUID().uuidString.utf8)
        var status = Self.status
        var ok = Self.ok
        var name = Self.apnsID
        return status.withUnsafeMutableBufferPointer { statusName in
            ok.withUnsafeMutableBufferPointer { okValue in
                name.withUnsafeMutableBufferPointer { idName in
                    id.withUnsafeMutableBufferPointer { idValue in
                        var headers = [
                            nghttp2_nv(
                                name: statusName.baseAddress, value: okValue.baseAddress, namelen: statusName.count,
                                valuelen: okValue.count, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)),
                            nghttp2_nv(
                                name: idName.baseAddress, value: idValue.baseAddress, namelen: idName.count,
                                valuelen: idValue.count, flags: UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue)),
                        ]
                        return nghttp2_submit_response(session, stream, &headers, headers.count, nil)
                    }
                }
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session = self.session, !self.failed else { return }
        let buffer = self.unwrapInboundIn(data)
        let read = buffer.withUnsafeReadableBytes { bytes -> Int in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            return nghttp2_session_mem_recv(session, base, bytes.count)
        }
        if read < 0 {
            self.failed = true
            self.flush(context: context)
            context.close(promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        self.flush(context: context)
    }

    func channelActive(context: ChannelHandlerContext) {
        self.flush(context: context)
        context.fireChannelActive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { self.flush(context: context) }
    }

    /// Writes everything the session has to send, in one buffer.
    private func flush(context: ChannelHandlerContext) {
        guard let session = self.session else { return }
        var out: ByteBuffer?
        while true {
            var chunk: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &chunk)
            guard count > 0, let chunk else { break }
            if out == nil { out = context.channel.allocator.buffer(capacity: max(count, 4096)) }
            out?.writeBytes(UnsafeRawBufferPointer(start: chunk, count: count))
        }
        if let out { context.writeAndFlush(self.wrapOutboundOut(out), promise: nil) }
        if nghttp2_session_want_read(session) == 0, nghttp2_session_want_write(session) == 0 { context.close(promise: nil) }
    }
}

import APNsCore
import APNsWire
import CNGHTTP2
import NIOCore

/// One connection's HTTP/2 server session in libnghttp2 (Debian's `libnghttp2-dev`): framing,
/// HPACK, flow control, stream states and the protocol's error handling are nghttp2's; this
/// turns its callbacks into ``ProviderRequestPart`` values and answers into its submissions. Bytes in through ``receive(_:)``,
/// bytes out through ``send(into:)``. Confined to the connection's event loop.
final class NGHTTP2Session {
    weak var delegate: (any NGHTTP2SessionDelegate)?
    private var session: OpaquePointer?
    private let allocator: ByteBufferAllocator
    /// The header block being received: HTTP/2 sends a block's frames one after the other, so
    /// there is at most one (RFC 9113 section 4.3).
    private var block: HeaderBlock?
    /// Answer bodies being sent, by stream.
    private var bodies: [Int32: ByteBuffer] = [:]
    /// The client's stream ids so far, to catch a HEADERS on one it skipped (see ``SkippedStreams``).
    private var streamIDs = SkippedStreams()

    /// A header block as it arrives: only the fields APNs reads are kept, the rest only counted
    /// (HPACK lets a few bytes stand for kilobytes of header list).
    struct HeaderBlock {
        let stream: Int32
        var reader = HTTP2PushRequestReader()
        var size = 0
    }

    init(allocator: ByteBufferAllocator) {
        self.allocator = allocator
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
            guard let frame, let session = NGHTTP2Session.from(user) else { return 0 }
            return session.beginHeaders(frame.pointee)
        }
        nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks) { _, header, user in
            // Every frame passes here: only a HEADERS frame is looked at further.
            guard let header, header.pointee.type == UInt8(NGHTTP2_HEADERS.rawValue), let session = NGHTTP2Session.from(user)
            else { return 0 }
            session.beginFrame(header.pointee)
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let name, let value, let session = NGHTTP2Session.from(user) else { return 0 }
            session.header(
                stream: frame.pointee.hd.stream_id,
                name: UnsafeBufferPointer(start: name, count: nameLength),
                value: UnsafeBufferPointer(start: value, count: valueLength)
            )
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, stream, data, length, user in
            guard let data, let session = NGHTTP2Session.from(user) else { return 0 }
            session.chunk(stream: stream, UnsafeRawBufferPointer(start: data, count: length))
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame, let session = NGHTTP2Session.from(user) else { return 0 }
            session.frameReceived(frame.pointee.hd)
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, user in
            guard let frame, let session = NGHTTP2Session.from(user) else { return 0 }
            let header = frame.pointee.hd
            let answer = header.type == UInt8(NGHTTP2_HEADERS.rawValue) || header.type == UInt8(NGHTTP2_DATA.rawValue)
            if answer, header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0 {
                session.delegate?.answerSent(header.stream_id)
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, stream, _, user in
            guard let session = NGHTTP2Session.from(user) else { return 0 }
            if session.block?.stream == stream { session.block = nil }
            session.bodies[stream] = nil
            session.delegate?.streamClosed(stream)
            return 0
        }
        var created: OpaquePointer?
        guard nghttp2_session_server_new(&created, callbacks, Unmanaged.passUnretained(self).toOpaque()) == 0 else { return }
        self.session = created
    }

    deinit {
        nghttp2_session_del(self.session)
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> NGHTTP2Session? {
        user.map { Unmanaged<NGHTTP2Session>.fromOpaque($0).takeUnretainedValue() }
    }

    private func beginHeaders(_ frame: nghttp2_frame) -> Int32 {
        guard frame.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
        self.block = HeaderBlock(stream: frame.hd.stream_id)
        if frame.headers.cat == NGHTTP2_HCAT_REQUEST {
            self.streamIDs.opened(frame.hd.stream_id)
            self.delegate?.streamOpened(frame.hd.stream_id)
        }
        return 0
    }

    /// RFC 9113 §5.1.1: a client's new stream id must be larger than every one it opened, and
    /// the ids it skipped are closed; HEADERS on one is a connection error of type
    /// PROTOCOL_ERROR (h2spec 5.1.1/2). libnghttp2 ignores such a HEADERS on purpose (it cannot
    /// tell a skipped stream from one closed and forgotten; nghttp2 issue 1300), so the session
    /// catches the skipped ones itself and sends the GOAWAY. A closed stream's late HEADERS stays
    /// nghttp2's to judge.
    private func beginFrame(_ header: nghttp2_frame_hd) {
        guard self.streamIDs.wasSkipped(header.stream_id), let session = self.session else { return }
        _ = nghttp2_session_terminate_session(session, UInt32(NGHTTP2_PROTOCOL_ERROR.rawValue))
    }

    private func header(stream: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        guard self.block?.stream == stream else { return }
        self.block?.size += name.count + value.count + 32  // RFC 9113 6.5.2
        self.block?.reader.add(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value))
    }

    private func chunk(stream: Int32, _ bytes: UnsafeRawBufferPointer) {
        self.delegate?.receivedBody(bytes, on: stream)
    }

    private func frameReceived(_ header: nghttp2_frame_hd) {
        let endStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        let id = header.stream_id
        switch header.type {
        case UInt8(NGHTTP2_HEADERS.rawValue):
            guard let block = self.block, block.stream == header.stream_id else { return }
            self.block = nil
            self.delegate?.received(
                ProviderRequestPart(stream: id, .headers(block.reader.request, listSize: block.size, endStream: endStream)))
        case UInt8(NGHTTP2_DATA.rawValue) where endStream:
            self.delegate?.received(ProviderRequestPart(stream: id, .body(ByteBuffer(), endStream: true)))
        default:
            break
        }
    }

    // MARK: Bytes in and out

    /// What reading the client's bytes came to.
    enum Reception {
        case read
        /// The client did not open with HTTP/2's connection preface: it speaks something else.
        case badPreface
        /// One of nghttp2's fatal errors.
        case failed
    }

    /// Reads `bytes` from the client. Anything but `.read`: send what is pending and close.
    func receive(_ bytes: ByteBuffer) -> Reception {
        guard let session = self.session else { return .failed }
        let read = bytes.withUnsafeReadableBytes { raw -> Int in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            return nghttp2_session_mem_recv(session, base, raw.count)
        }
        if read >= 0 { return .read }
        return read == Int(NGHTTP2_ERR_BAD_CLIENT_MAGIC.rawValue) ? .badPreface : .failed
    }

    /// Appends everything the session has to send to `buffer`. False on a fatal error.
    func send(into buffer: inout ByteBuffer?) -> Bool {
        guard let session = self.session else { return false }
        while true {
            var chunk: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &chunk)
            guard count >= 0 else { return false }
            guard count > 0, let chunk else { return true }
            if buffer == nil { buffer = self.allocator.buffer(capacity: max(count, 4096)) }
            buffer?.writeBytes(UnsafeRawBufferPointer(start: chunk, count: count))
        }
    }

    // MARK: Answers

    /// Submits the answer on stream `id`: `fields` (`:status` first) and, if given, `body` in
    /// DATA. False when the stream is gone.
    func submitResponse(stream id: Int32, fields: ResponseFields, body: ByteBuffer?) -> Bool {
        let byteCount = fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        return self.submit(stream: id, fieldCount: fields.count, byteCount: byteCount, body: body) { layout in
            for field in fields { layout.add(field.name, field.value, indexable: field.indexable) }
        }
    }

    /// Submits a 200 for a stored notification on stream `id`: `apns-id`, `apns-unique-id` when
    /// given, and the lint's warnings, laid out straight from the values (no field list built).
    func submitAccepted(stream id: Int32, apnsID: String, uniqueID: String?, warnings: [PushWarning]) -> Bool {
        guard warnings.isEmpty else {
            return self.submitResponse(
                stream: id, fields: HTTP2PushResponseEncoder.success(apnsID: apnsID, uniqueID: uniqueID, warnings: warnings),
                body: nil)
        }
        let byteCount = 10 + apnsID.utf8.count + (uniqueID.map { 14 + $0.utf8.count } ?? 0) + 7
        return self.submit(stream: id, fieldCount: uniqueID == nil ? 2 : 3, byteCount: byteCount, body: nil) { layout in
            layout.add(":status", "200", indexable: true)
            // Identifiers are unique per answer: indexing them would only churn the HPACK table.
            layout.add("apns-id", apnsID, indexable: false)
            if let uniqueID { layout.add("apns-unique-id", uniqueID, indexable: false) }
        }
    }

    /// Lays the fields out on the stack (nghttp2 copies them while submitting) and submits them.
    private func submit(
        stream id: Int32, fieldCount: Int, byteCount: Int, body: ByteBuffer?, _ lay: (inout NGHTTP2FieldLayout) -> Void
    ) -> Bool {
        guard let session = self.session else { return false }
        if let body { self.bodies[id] = body }
        let submitted = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(byteCount, 1)) { bytes -> Int32 in
            withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: max(fieldCount, 1)) { nva -> Int32 in
                guard let fields = nva.baseAddress else { return -1 }
                var layout = NGHTTP2FieldLayout(bytes: bytes, fields: fields, capacity: fieldCount)
                lay(&layout)
                guard body != nil else { return nghttp2_submit_response(session, id, fields, layout.count, nil) }
                var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: Self.readBody)
                return nghttp2_submit_response(session, id, fields, layout.count, &provider)
            }
        }
        if submitted != 0 { self.bodies[id] = nil }
        return submitted == 0
    }

    /// nghttp2 asks for the next bytes of an answer's body.
    private static let readBody: nghttp2_data_source_read_callback = { _, stream, buffer, length, flags, _, user in
        guard let buffer, let flags, let session = NGHTTP2Session.from(user) else {
            return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)
        }
        guard var body = session.bodies[stream] else {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            return 0
        }
        let count = min(length, body.readableBytes)
        body.withUnsafeReadableBytes {
            UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(buffer), byteCount: count)
        }
        body.moveReaderIndex(forwardBy: count)
        if body.readableBytes == 0 {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            session.bodies[stream] = nil
        } else {
            session.bodies[stream] = body
        }
        return count
    }

    /// Resets stream `id` with HTTP/2 error `code`.
    func submitReset(stream id: Int32, code: UInt32) {
        guard let session = self.session else { return }
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), id, code)
    }

    /// Sends GOAWAY naming `lastStream` (later streams were not processed; nghttp2 closes them once
    /// it is sent) with `debugData`.
    func submitGoAway(lastStream: Int32, code: UInt32, debugData: ByteBuffer) {
        guard let session = self.session else { return }
        let bytes = Array(debugData.readableBytesView)
        nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStream, code, bytes, bytes.count)
    }

    /// Sends SETTINGS; nghttp2 applies them to the streams it accepts.
    func submitSettings(_ settings: [(id: Int32, value: UInt32)]) {
        guard let session = self.session else { return }
        var entries = settings.map { nghttp2_settings_entry(settings_id: $0.id, value: $0.value) }
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count)
    }

    /// Opens the connection's receive window to `size` bytes; nghttp2 tops it up as it is used.
    func openConnectionWindow(to size: Int32) {
        guard let session = self.session else { return }
        nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, size)
    }

    /// Whether the session still reads; false once it sent a GOAWAY for a connection error, or a
    /// GOAWAY was exchanged and no stream is left.
    var wantsRead: Bool { self.session.map { nghttp2_session_want_read($0) != 0 } ?? false }
    /// Whether the session has anything left to send or may yet have.
    var wantsWrite: Bool { self.session.map { nghttp2_session_want_write($0) != 0 } ?? false }
}

import APNsCore
import NIOCore

/// Writes legacy gateway commands, as a provider does; translation only. The emulator never sends
/// these: its tests, benchmark and clients do.
public enum BinaryPushEncoder {
    /// Command 0: token and payload only.
    public static func writeSimple(token: [UInt8], payload: [UInt8], into out: inout ByteBuffer) {
        out.writeInteger(UInt8(0))
        self.writeTokenAndPayload(token: token, payload: payload, into: &out)
    }

    /// Command 1: identifier, expiry, token and payload.
    public static func writeEnhanced(
        identifier: UInt32, expiry: UInt32, token: [UInt8], payload: [UInt8], into out: inout ByteBuffer
    ) {
        out.writeInteger(UInt8(1))
        out.writeInteger(identifier)
        out.writeInteger(expiry)
        self.writeTokenAndPayload(token: token, payload: payload, into: &out)
    }

    /// Command 2 with the items `request` has: token and payload when not empty, identifier
    /// always, expiry and priority when set.
    public static func writeFrame(_ request: BinaryPushRequest, into out: inout ByteBuffer) {
        var items: [(UInt8, [UInt8])] = []
        if !request.token.isEmpty { items.append((1, request.token)) }
        if !request.payload.isEmpty { items.append((2, request.payload)) }
        items.append((3, self.bigEndian(request.identifier)))
        if let expiry = request.expiry { items.append((4, self.bigEndian(expiry))) }
        if let priority = request.priority { items.append((5, [priority])) }
        self.writeFrame(items: items, into: &out)
    }

    /// Command 2 with exactly these items, in this order, valid or not.
    public static func writeFrame(items: [(id: UInt8, data: [UInt8])], into out: inout ByteBuffer) {
        out.writeInteger(UInt8(2))
        out.writeInteger(UInt32(items.reduce(0) { $0 + 3 + $1.data.count }))
        for item in items {
            out.writeInteger(item.id)
            out.writeInteger(UInt16(item.data.count))
            out.writeBytes(item.data)
        }
    }

    private static func writeTokenAndPayload(token: [UInt8], payload: [UInt8], into out: inout ByteBuffer) {
        out.writeInteger(UInt16(token.count))
        out.writeBytes(token)
        out.writeInteger(UInt16(payload.count))
        out.writeBytes(payload)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}

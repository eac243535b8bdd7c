import APNsCore
import APNsDevice
import APNsWire
import Foundation

struct ActivityList: Decodable {
    var items: [ActivitySnapshot]
}

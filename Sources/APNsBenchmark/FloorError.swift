import CNGHTTP2
import Foundation
import NIOCore

struct FloorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

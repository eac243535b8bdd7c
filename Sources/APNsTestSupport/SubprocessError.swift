import Foundation
import Synchronization

public enum SubprocessError: Error, CustomStringConvertible {
    case missingExecutable(String)
    case exited(String)

    public var description: String {
        switch self {
        case .missingExecutable(let path): return "no executable at \(path): build the package first (swift build)"
        case .exited(let output): return "the emulator exited: \(output)"
        }
    }
}

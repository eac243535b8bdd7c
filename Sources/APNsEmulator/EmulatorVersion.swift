/// The version every command prints with `--version`.
enum EmulatorVersion {
    static let string = "0.18.0"
}

import APNsTestSupport
import Foundation
import Testing

/// `withEmulator` stops what it started however the test's body ends (issue 39: a test that
/// threw part-way used to leave its emulator running). The tests keep a reference to the
/// emulator, so what stops it is the scope, not the last reference going. (Its ports are not
/// probed: beside hundreds of other emulators, another may already have the same port.)
@Suite("Scoped emulator")
struct WithEmulatorTests {
    struct PartWay: Error {}

    @Test("a body that throws part-way: the error comes out, and the emulator has stopped, its store closed")
    func stopsOnThrow() async throws {
        var kept: RunningEmulator?
        await #expect(throws: PartWay.self) {
            try await withEmulator { emulator in
                kept = emulator
                #expect(try await emulator.admin("/healthz").status == 200)
                throw PartWay()
            }
        }
        let emulator = try #require(kept)
        #expect(emulator.hasStopped)
    }

    @Test("a body that returns: the emulator is stopped on the way out")
    func stopsOnReturn() async throws {
        var kept: RunningEmulator?
        try await withEmulator { emulator async throws in
            kept = emulator
            #expect(try await emulator.admin("/healthz").status == 200)
        }
        let emulator = try #require(kept)
        #expect(emulator.hasStopped)
        // What it started with is gone too: a suite run no longer leaves hundreds of directories behind.
        #expect(!FileManager.default.fileExists(atPath: emulator.directory.path))
    }

    @Test("a directory the test gave is the test's: kept for the restart that reuses it")
    func keepsGivenDirectory() async throws {
        let directory = try TemporaryDirectory()
        try await withEmulator(directory: directory) { emulator async throws in
            #expect(try await emulator.admin("/healthz").status == 200)
        }
        #expect(FileManager.default.fileExists(atPath: directory.appending("data")))
        try directory.remove()
    }
}

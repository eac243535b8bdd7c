package apnsemulator;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A test that fails on purpose, run by ApnsEmulatorTest through the launcher (not selected on its own). */
@ExtendWith(ApnsEmulatorExtension.class)
class FailingScenario {
    static volatile long pid;
    static volatile java.nio.file.Path directory;

    @Test
    void fails(ApnsEmulator apns) {
        pid = apns.pid();
        directory = apns.directory();
        fail("the test failed");
    }
}

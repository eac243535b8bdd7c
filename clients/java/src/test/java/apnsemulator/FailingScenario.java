package apnsemulator;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A test that fails on purpose, run by ApnsEmulatorTest through the launcher (not selected on its own). */
@ExtendWith(ApnsEmulatorExtension.class)
class FailingScenario {
    static volatile long pid;

    @Test
    void fails(ApnsEmulator apns) {
        pid = apns.pid();
        fail("the test failed");
    }
}

package apnsemulator;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension: {@code @ExtendWith(ApnsEmulatorExtension.class)} on a test class, and a
 * test method taking an {@link ApnsEmulator} parameter gets one started for it (on free ports, with
 * its own CA, keys and store), stopped after the test; a failed test gets the emulator's log (a
 * report entry, and standard error). {@link EmulatorOptions} on the class or method passes serve's
 * flags and a seed file.
 */
public final class ApnsEmulatorExtension implements ParameterResolver, AfterEachCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ApnsEmulatorExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ApnsEmulator.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Optional<EmulatorOptions> options = context.getTestMethod().map(m -> m.getAnnotation(EmulatorOptions.class))
                .or(() -> context.getTestClass().map(c -> c.getAnnotation(EmulatorOptions.class)));
        ApnsEmulator.Options given = options
                .map(o -> new ApnsEmulator.Options(List.of(o.serve()), o.seed().isEmpty() ? null : Path.of(o.seed())))
                .orElse(ApnsEmulator.Options.defaults());
        try {
            ApnsEmulator emulator = ApnsEmulator.start(given);
            context.getStore(NAMESPACE).put("emulator", emulator);
            return emulator;
        } catch (Exception error) {
            throw new ParameterResolutionException("apns-emulator did not start: " + error.getMessage(), error);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        ApnsEmulator emulator = context.getStore(NAMESPACE).remove("emulator", ApnsEmulator.class);
        if (emulator == null) return;
        emulator.close();
        if (context.getExecutionException().isPresent()) {
            String log = emulator.log();
            context.publishReportEntry("apns-emulator log", log);
            System.err.println("--- apns-emulator log (" + emulator.directory().resolve("serve.log") + ") ---\n" + log);
        } else {
            emulator.remove();
        }
    }
}

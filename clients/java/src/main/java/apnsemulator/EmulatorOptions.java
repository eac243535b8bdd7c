package apnsemulator;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How {@link ApnsEmulatorExtension} starts the emulator for a test class or method:
 * {@code @EmulatorOptions(serve = {"--auth", "strict"}, seed = "src/test/resources/world.yaml")}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface EmulatorOptions {
    /** serve's flags, as on its command line. */
    String[] serve() default {};

    /** A seed file (docs/seed.schema.json); none when empty. */
    String seed() default "";
}

package apnsemulator;

/** A test runner that starts an emulator, says its pid and directory, and hangs until it is killed. */
final class HangingRunner {
    public static void main(String[] arguments) throws Exception {
        ApnsEmulator apns = ApnsEmulator.start(ApnsEmulator.Options.defaults());
        System.out.println(apns.pid() + " " + apns.directory());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}

// The benchmark's peer: Pushy's MockApnsServer, accepting every notification, as a Java
// project would run it in its tests. Built by .ci/pushy-mock.sh from the public Pushy source;
// nothing of Pushy is in this repository.
//
//   java -cp ... PushyMockMain PORT CERT.pem KEY-PKCS8.pem
import com.eatthepath.pushy.apns.server.AcceptAllPushNotificationHandlerFactory;
import com.eatthepath.pushy.apns.server.MockApnsServer;
import com.eatthepath.pushy.apns.server.MockApnsServerBuilder;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.File;

public final class PushyMockMain {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        MockApnsServer server = new MockApnsServerBuilder()
                .setServerCredentials(new File(args[1]), new File(args[2]), null)
                .setHandlerFactory(new AcceptAllPushNotificationHandlerFactory())
                .setEventLoopGroup(new NioEventLoopGroup(2))
                .setMaxConcurrentStreams(1000)
                .setUseAlpn(true)
                .build();
        server.start(port).get();
        System.out.println("pushy mock on " + port);
        Thread.currentThread().join();
    }
}

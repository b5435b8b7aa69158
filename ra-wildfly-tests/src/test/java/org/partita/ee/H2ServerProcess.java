package org.partita.ee;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import org.h2.tools.Server;

/**
 * An H2 database server in a process of its own, on loopback: the database of the applications a
 * failure test deploys, which outlives the application server (or the node) the test kills, as a
 * real one would, and which the test reads while the server is down.
 */
final class H2ServerProcess implements AutoCloseable {
    static final String USER = "sa";
    static final String PASSWORD = "sa";

    private final Process process;
    private final int port;

    private H2ServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the server with its files in {@code dir} and waits until it takes connections. */
    static H2ServerProcess start(Path dir) throws Exception {
        int port = freePort();
        String h2 = Path.of(Server.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString();
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dh2.bindAddress=127.0.0.1",
                        "-cp",
                        h2,
                        Server.class.getName(),
                        "-tcp",
                        "-tcpPort",
                        String.valueOf(port),
                        "-ifNotExists",
                        "-baseDir",
                        dir.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("h2.log").toFile())
                .start();
        H2ServerProcess server = new H2ServerProcess(p, port);
        String probe = server.url("probe");
        try {
            await("the database server up")
                    .atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .until(() -> {
                        DriverManager.getConnection(probe, USER, PASSWORD).close();
                        return true;
                    });
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The JDBC URL of database {@code name} on this server (created at its first connection). */
    String url(String name) {
        return "jdbc:h2:tcp://127.0.0.1:" + port + "/" + name;
    }

    java.sql.Connection connect(String name) throws java.sql.SQLException {
        return DriverManager.getConnection(url(name), USER, PASSWORD);
    }

    /**
     * A deployment descriptor binding an XA data source for database {@code name} at {@code jndiName}
     * (WildFly's {@code *-ds.xml}, with its bundled {@code h2} driver).
     */
    String dataSourceXml(String jndiName, String poolName, String name) {
        return """
                <datasources xmlns="http://www.jboss.org/ironjacamar/schema">
                  <xa-datasource jndi-name="%s" pool-name="%s">
                    <xa-datasource-property name="URL">%s</xa-datasource-property>
                    <driver>h2</driver>
                    <security><user-name>%s</user-name><password>%s</password></security>
                  </xa-datasource>
                </datasources>
                """.formatted(jndiName, poolName, url(name), USER, PASSWORD);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}

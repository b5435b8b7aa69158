package org.partita.jms.jndi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Hashtable;
import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NameNotFoundException;
import javax.naming.NamingException;
import javax.naming.OperationNotSupportedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.destination.PartitaQueue;

/** Through {@link InitialContext}, the way applications use it. */
class InitialContextIntegrationTest {

    private static String url(Context ctx, String name) throws NamingException {
        return assertInstanceOf(PartitaConnectionFactory.class, ctx.lookup(name))
                .getUrl();
    }

    @Test
    void initialContextWithFactoryClassInTheEnvironment() throws Exception {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.partita.jms.jndi.PartitaInitialContextFactory");
        env.put(Context.PROVIDER_URL, "tcp://broker:61700?clientID=app");
        env.put("connectionFactory.cts", "tcp://127.0.0.1:61700?clientID=cts&user=u&password=p");
        env.put("queue.jms/orders", "orders");
        env.put("topic.prices", "mfg/prices");
        Context ctx = new InitialContext(env);
        try {
            assertInstanceOf(ConnectionFactory.class, ctx.lookup("ConnectionFactory"));
            assertEquals("tcp://broker:61700?clientID=app", url(ctx, "ConnectionFactory"));
            assertEquals("tcp://127.0.0.1:61700?clientID=cts&user=u&password=p", url(ctx, "cts"));
            assertEquals("orders", ((Queue) ctx.lookup("jms/orders")).getQueueName());
            assertEquals("mfg/prices", ((Topic) ctx.lookup("prices")).getTopicName());
            assertEquals(new PartitaQueue("dyn"), ctx.lookup("dynamicQueues/dyn"));
            assertThrows(NameNotFoundException.class, () -> ctx.lookup("missing"));
            assertThrows(OperationNotSupportedException.class, () -> ctx.bind("x", "y"));
            assertEquals("orders", ctx.getEnvironment().get("queue.jms/orders"));
        } finally {
            ctx.close();
        }
    }

    @Test
    void invalidUrlFailsWhenTheInitialContextIsUsed() {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, PartitaInitialContextFactory.class.getName());
        env.put("connectionFactory.bad", "tcp://127.0.0.1:61700?user=u&colour=red");
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> new InitialContext(env));
        assertEquals(true, e.getMessage().contains("connectionFactory.bad"), e.getMessage());
    }

    @Test
    void jndiPropertiesOnTheContextClassPathIsMerged(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("jndi.properties"), """
                java.naming.factory.initial = org.partita.jms.jndi.PartitaInitialContextFactory
                java.naming.provider.url = tcp://from-file:61700
                connectionFactory.fileCf = tcp://file-host:61701?clientID=file
                queue.orders = orders-from-file
                topic.jms/prices = prices
                """);
        // no environment at all: everything comes from jndi.properties
        withContextClassPath(dir, () -> {
            Context ctx = new InitialContext();
            try {
                assertEquals("tcp://from-file:61700", url(ctx, "ConnectionFactory"));
                assertEquals("tcp://file-host:61701?clientID=file", url(ctx, "fileCf"));
                assertEquals("orders-from-file", ((Queue) ctx.lookup("orders")).getQueueName());
                assertEquals("prices", ((Topic) ctx.lookup("jms/prices")).getTopicName());
            } finally {
                ctx.close();
            }
        });
        // the Hashtable wins over the file, the rest of the file still applies
        withContextClassPath(dir, () -> {
            Hashtable<String, Object> env = new Hashtable<>();
            env.put(Context.PROVIDER_URL, "tcp://from-env:61700");
            env.put("queue.orders", "orders-from-env");
            Context ctx = new InitialContext(env);
            try {
                assertEquals("tcp://from-env:61700", url(ctx, "ConnectionFactory"));
                assertEquals("orders-from-env", ((Queue) ctx.lookup("orders")).getQueueName());
                assertEquals("tcp://file-host:61701?clientID=file", url(ctx, "fileCf"));
            } finally {
                ctx.close();
            }
        });
    }

    @Test
    void providerUrlSystemPropertyIsMerged() throws Exception {
        String previous = System.getProperty(Context.PROVIDER_URL);
        System.setProperty(Context.PROVIDER_URL, "tcp://from-system:61702");
        try {
            Hashtable<String, Object> env = new Hashtable<>();
            env.put(Context.INITIAL_CONTEXT_FACTORY, PartitaInitialContextFactory.class.getName());
            Context ctx = new InitialContext(env);
            assertEquals("tcp://from-system:61702", url(ctx, "ConnectionFactory"));
            ctx.close();
        } finally {
            if (previous == null) {
                System.clearProperty(Context.PROVIDER_URL);
            } else {
                System.setProperty(Context.PROVIDER_URL, previous);
            }
        }
    }

    private interface NamingBlock {
        void run() throws Exception;
    }

    private static void withContextClassPath(Path dir, NamingBlock block) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {dir.toUri().toURL()}, InitialContextIntegrationTest.class.getClassLoader())) {
            thread.setContextClassLoader(loader);
            block.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}

package org.partita.jms.jndi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Hashtable;
import java.util.List;
import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.InvalidNameException;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NamingException;
import javax.naming.NotContextException;
import javax.naming.OperationNotSupportedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.destination.PartitaQueue;
import org.partita.jms.destination.PartitaTopic;

class PartitaInitialContextFactoryTest {

    private static Context context(String... keyValues) throws NamingException {
        Hashtable<String, Object> env = new Hashtable<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        return new PartitaInitialContextFactory().getInitialContext(env);
    }

    private static String url(Context ctx, String name) throws NamingException {
        return assertInstanceOf(PartitaConnectionFactory.class, ctx.lookup(name))
                .getUrl();
    }

    // ---- connection factories

    @Test
    void defaultConnectionFactoryUsesDefaultUrl() throws Exception {
        Context ctx = context();
        assertEquals("tcp://127.0.0.1:61700", url(ctx, "ConnectionFactory"));
        assertInstanceOf(ConnectionFactory.class, ctx.lookup("ConnectionFactory"));
        assertThrows(NameNotFoundException.class, () -> ctx.lookup("XAConnectionFactory"));
    }

    @Test
    void nullEnvironmentIsAnEmptyOne() throws Exception {
        Context ctx = new PartitaInitialContextFactory().getInitialContext(null);
        assertEquals("tcp://127.0.0.1:61700", url(ctx, "ConnectionFactory"));
    }

    @Test
    void defaultConnectionFactoryUsesProviderUrl() throws Exception {
        Context ctx = context(Context.PROVIDER_URL, "tcp://broker.example:7000?clientID=app");
        assertEquals("tcp://broker.example:7000?clientID=app", url(ctx, "ConnectionFactory"));
    }

    @Test
    void explicitConnectionFactoryReplacesTheDefault() throws Exception {
        Context ctx = context(
                Context.PROVIDER_URL,
                "tcp://ignored:1",
                "connectionFactory.ConnectionFactory",
                "tcp://chosen:2?user=u");
        assertEquals("tcp://chosen:2?user=u", url(ctx, "ConnectionFactory"));
    }

    @Test
    void explicitBindingOfTheDefaultNameSkipsAnInvalidProviderUrl() throws Exception {
        Context ctx = context(
                Context.PROVIDER_URL, "http://not-ours", "connectionFactory.ConnectionFactory", "tcp://chosen:2");
        assertEquals("tcp://chosen:2", url(ctx, "ConnectionFactory"));
    }

    @Test
    void xaConnectionFactoriesAreBoundByTheirOwnPrefix() throws Exception {
        Context ctx = context(
                Context.PROVIDER_URL,
                "tcp://broker.example:7000",
                "xaConnectionFactory.jms/xa",
                "tcp://other:61700?user=u",
                "xaconnectionfactory.lower",
                "",
                "connectionFactory.plain",
                "tcp://other:61700");
        assertInstanceOf(jakarta.jms.XAConnectionFactory.class, ctx.lookup("jms/xa"));
        assertInstanceOf(jakarta.jms.XAQueueConnectionFactory.class, ctx.lookup("jms/xa"));
        assertEquals("tcp://other:61700?user=u", url(ctx, "jms/xa"));
        assertEquals("tcp://broker.example:7000", url(ctx, "lower"), "an empty URL is the provider URL");
        assertFalse(ctx.lookup("plain") instanceof jakarta.jms.XAConnectionFactory);
        assertFalse(ctx.lookup("ConnectionFactory") instanceof jakarta.jms.XAConnectionFactory);
        javax.naming.ConfigurationException bad = assertThrows(
                javax.naming.ConfigurationException.class, () -> context("xaConnectionFactory.x", "http://nope"));
        assertTrue(bad.getMessage().contains("xaConnectionFactory.x"), bad.getMessage());
        assertThrows(
                javax.naming.ConfigurationException.class,
                () -> context("xaConnectionFactory.same", "tcp://a:1", "connectionFactory.same", "tcp://a:1"));
    }

    @Test
    void connectionFactoryUrlOptionsArePreserved() throws Exception {
        Context ctx = context(
                "connectionFactory.cts",
                "tcp://127.0.0.1:61700?clientID=cts&user=u&password=p",
                "connectionfactory.qpidStyle",
                "tcp://10.0.0.1:61701?prefetch=10",
                "connectionFactory.jms/cf.main",
                "tcp://localhost");
        assertEquals("tcp://127.0.0.1:61700?clientID=cts&user=u&password=p", url(ctx, "cts"));
        assertEquals("tcp://10.0.0.1:61701?prefetch=10", url(ctx, "qpidStyle"));
        assertEquals("tcp://localhost", url(ctx, "jms/cf.main"));
        assertEquals("tcp://127.0.0.1:61700", url(ctx, "ConnectionFactory"));
        assertSame(ctx.lookup("cts"), ctx.lookup("cts"));
    }

    @Test
    void emptyConnectionFactoryUrlMeansTheProviderUrl() throws Exception {
        Context ctx = context(Context.PROVIDER_URL, "tcp://provider:9", "connectionFactory.other", "  ");
        assertEquals("tcp://provider:9", url(ctx, "other"));
    }

    @Test
    void urlsMayListSeveralNodes() throws Exception {
        Context ctx = context(
                Context.PROVIDER_URL,
                "tcp://a:61700,tcp://b:61700?failoverTimeout=5000",
                "connectionFactory.cluster",
                "tcp://c:61700,tcp://d:61701");
        assertEquals("tcp://a:61700,tcp://b:61700?failoverTimeout=5000", url(ctx, "ConnectionFactory"));
        assertEquals("tcp://c:61700,tcp://d:61701", url(ctx, "cluster"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://127.0.0.1:61700",
                "tcp://127.0.0.1:61700?colour=red",
                "tcp://a:1,ldap://b:2",
                "tcp://a:1?prefetch=1,tcp://b:2",
                "tcp://a:1,,tcp://b:2",
                "tcp://127.0.0.1:61700?prefetch=-1",
                "tcp://127.0.0.1:61700?clientID",
                "tcp:// bad host",
                "localhost:61700"
            })
    void invalidConnectionFactoryUrlIsAConfigurationError(String url) {
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> context("connectionFactory.broken", url));
        assertTrue(e.getMessage().contains("connectionFactory.broken"), e.getMessage());
        assertInstanceOf(jakarta.jms.JMSException.class, e.getRootCause());
    }

    @Test
    void invalidProviderUrlIsAConfigurationError() {
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> context(Context.PROVIDER_URL, "ldap://directory:389"));
        assertTrue(e.getMessage().contains(Context.PROVIDER_URL), e.getMessage());
    }

    @Test
    void nonStringValueIsAConfigurationError() {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put("queue.orders", 42);
        ConfigurationException e = assertThrows(
                ConfigurationException.class, () -> new PartitaInitialContextFactory().getInitialContext(env));
        assertTrue(e.getMessage().contains("queue.orders"), e.getMessage());
    }

    // ---- destinations

    @Test
    void queuesAndTopicsAreBoundUnderFlatNames() throws Exception {
        Context ctx = context(
                "queue.orders",
                "orders",
                "queue.jms/queue/in",
                "incoming",
                "queue.app.q",
                "orders?partitions=8",
                "topic.prices",
                "mfg/prices",
                "topic.a.b/c",
                "abc");
        assertEquals(new PartitaQueue("orders"), ctx.lookup("orders"));
        assertEquals(
                "incoming",
                assertInstanceOf(Queue.class, ctx.lookup("jms/queue/in")).getQueueName());
        assertEquals(
                "orders?partitions=8",
                assertInstanceOf(Queue.class, ctx.lookup("app.q")).getQueueName());
        assertEquals(new PartitaTopic("mfg/prices"), ctx.lookup("prices"));
        assertEquals("abc", assertInstanceOf(Topic.class, ctx.lookup("a.b/c")).getTopicName());
    }

    @Test
    void lookupByNameObjectUsesTheSameFlatNames() throws Exception {
        Context ctx = context("queue.jms/queue/in", "incoming", "topic.a.b", "ab");
        assertEquals(new PartitaQueue("incoming"), ctx.lookup(new CompositeName("jms/queue/in")));
        assertEquals(
                new PartitaQueue("incoming"), ctx.lookup(ctx.getNameParser("").parse("jms/queue/in")));
        assertEquals(new PartitaTopic("ab"), ctx.lookup(new CompositeName("a.b")));
        assertEquals(new PartitaQueue("x"), ctx.lookup(new CompositeName("dynamicQueues/x")));
    }

    @Test
    void nameParserIsFlat() throws Exception {
        Context ctx = context();
        assertEquals(1, ctx.getNameParser("").parse("jms/queue/a.b").size());
        assertEquals(
                "jms/queue/a.b",
                ctx.getNameParser(new CompositeName()).parse("jms/queue/a.b").get(0));
        assertEquals("", ctx.getNameInNamespace());
    }

    @Test
    void sameNameBoundTwiceIsAConfigurationError() {
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> context("queue.x", "a", "topic.x", "b"));
        assertTrue(e.getMessage().contains("queue.x") && e.getMessage().contains("topic.x"), e.getMessage());
    }

    @Test
    void missingNameOrDestinationIsAConfigurationError() {
        assertTrue(assertThrows(ConfigurationException.class, () -> context("queue.", "a"))
                .getMessage()
                .contains("queue."));
        assertTrue(assertThrows(ConfigurationException.class, () -> context("topic.t", " "))
                .getMessage()
                .contains("topic.t"));
    }

    @Test
    void unrelatedPropertiesAreIgnored() throws Exception {
        Context ctx = context("queues.x", "a", "java.naming.security.principal", "me", "connectionFactoryX", "y");
        assertEquals(List.of("ConnectionFactory"), names(ctx.list("")));
    }

    // ---- dynamic destinations

    @Test
    void dynamicQueuesAndTopicsAreCreatedOnLookup() throws Exception {
        Context ctx = context();
        assertEquals(new PartitaQueue("orders"), ctx.lookup("dynamicQueues/orders"));
        assertEquals(new PartitaQueue("a/b?partitions=4"), ctx.lookup("dynamicQueues/a/b?partitions=4"));
        Topic topic = assertInstanceOf(Topic.class, ctx.lookup("dynamicTopics/mfg.prices"));
        assertEquals("mfg.prices", topic.getTopicName());
        assertInstanceOf(PartitaTopic.class, topic);
        assertThrows(InvalidNameException.class, () -> ctx.lookup("dynamicQueues/"));
        assertThrows(InvalidNameException.class, () -> ctx.lookup("dynamicTopics/ "));
        assertThrows(NameNotFoundException.class, () -> ctx.lookup("dynamicQueues"));
    }

    @Test
    void boundNamesWinOverDynamicOnes() throws Exception {
        Context ctx = context("topic.dynamicQueues/odd", "really-a-topic");
        assertEquals(new PartitaTopic("really-a-topic"), ctx.lookup("dynamicQueues/odd"));
    }

    // ---- lookup failures, listing, environment

    @Test
    void unknownNameIsNotFound() throws Exception {
        Context ctx = context("queue.orders", "orders");
        NameNotFoundException e = assertThrows(NameNotFoundException.class, () -> ctx.lookup("jms/missing.q"));
        assertTrue(e.getMessage().contains("'jms/missing.q'"), e.getMessage());
        assertEquals("jms/missing.q", e.getRemainingName().get(0));
        assertThrows(NameNotFoundException.class, () -> ctx.lookup(new CompositeName("nope")));
        assertThrows(NameNotFoundException.class, () -> ctx.lookup("Orders"));
    }

    @Test
    void emptyNameIsAViewOfTheSameBindings() throws Exception {
        Context ctx = context("queue.orders", "orders");
        Context view = assertInstanceOf(Context.class, ctx.lookup(""));
        assertNotSame(ctx, view);
        assertSame(ctx.lookup("orders"), view.lookup("orders"));
        Context viaName = assertInstanceOf(Context.class, ctx.lookup(new CompositeName()));
        assertSame(ctx.lookup("ConnectionFactory"), viaName.lookup("ConnectionFactory"));
    }

    @Test
    void listsTheRootSortedByName() throws Exception {
        Context ctx = context("queue.orders", "orders", "topic.prices", "prices", "connectionFactory.cf", "tcp://h:1");
        List<NameClassPair> pairs = Collections.list(ctx.list(""));
        assertEquals(List.of("ConnectionFactory", "cf", "orders", "prices"), names(ctx.list("")));
        assertEquals(PartitaQueue.class.getName(), pairs.get(2).getClassName());
        List<Binding> bindings = Collections.list(ctx.listBindings(new CompositeName()));
        assertEquals(4, bindings.size());
        assertEquals("prices", bindings.get(3).getName());
        assertSame(ctx.lookup("prices"), bindings.get(3).getObject());
        assertEquals(names(ctx.list("")), names(ctx.listBindings("")));
    }

    @Test
    void onlyTheRootCanBeListed() throws Exception {
        Context ctx = context("queue.orders", "orders");
        assertThrows(NotContextException.class, () -> ctx.list("orders"));
        assertThrows(NotContextException.class, () -> ctx.listBindings("dynamicTopics/t"));
        assertThrows(NameNotFoundException.class, () -> ctx.list("missing"));
    }

    @Test
    void environmentIsACopy() throws Exception {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put("queue.orders", "orders");
        env.put("custom", "value");
        Context ctx = new PartitaInitialContextFactory().getInitialContext(env);
        env.put("queue.later", "later");
        assertEquals("value", ctx.getEnvironment().get("custom"));
        assertFalse(ctx.getEnvironment().containsKey("queue.later"));
        ctx.getEnvironment().clear();
        assertEquals("orders", ctx.getEnvironment().get("queue.orders"));
        assertNull(ctx.addToEnvironment("extra", "1"));
        assertEquals("1", ctx.getEnvironment().get("extra"));
        assertEquals("1", ctx.removeFromEnvironment("extra"));
        assertThrows(NameNotFoundException.class, () -> ctx.lookup("later"));
    }

    @Test
    void closedContextRefusesLookups() throws Exception {
        Context ctx = context("queue.orders", "orders");
        Context view = (Context) ctx.lookup("");
        ctx.close();
        ctx.close();
        assertThrows(NamingException.class, () -> ctx.lookup("orders"));
        assertThrows(NamingException.class, () -> ctx.list(""));
        assertEquals(new PartitaQueue("orders"), view.lookup("orders"));
    }

    // ---- read-only

    @Test
    void everyMutationIsRefused() throws Exception {
        Context ctx = context("queue.orders", "orders");
        Object queue = new PartitaQueue("q");
        CompositeName name = new CompositeName("orders");
        List<Executable> mutations = List.of(
                () -> ctx.bind("x", queue), () -> ctx.bind(new CompositeName("x"), queue),
                () -> ctx.rebind("orders", queue), () -> ctx.rebind(name, queue),
                () -> ctx.unbind("orders"), () -> ctx.unbind(name),
                () -> ctx.rename("orders", "o2"), () -> ctx.rename(name, new CompositeName("o2")),
                () -> ctx.createSubcontext("sub"), () -> ctx.createSubcontext(new CompositeName("sub")),
                () -> ctx.destroySubcontext("orders"), () -> ctx.destroySubcontext(name));
        for (Executable mutation : mutations) {
            OperationNotSupportedException e = assertThrows(OperationNotSupportedException.class, mutation);
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        }
        assertEquals(new PartitaQueue("orders"), ctx.lookup("orders"));
        assertEquals(List.of("ConnectionFactory", "orders"), names(ctx.list("")));
    }

    @Test
    void composesNames() throws Exception {
        Context ctx = context();
        assertEquals("queue", ctx.composeName("queue", ""));
        assertEquals("jms/queue", ctx.composeName("queue", "jms"));
        assertEquals(
                new CompositeName("jms/queue"), ctx.composeName(new CompositeName("queue"), new CompositeName("jms")));
    }

    private static List<String> names(javax.naming.NamingEnumeration<? extends NameClassPair> e)
            throws NamingException {
        List<String> names = new ArrayList<>();
        while (e.hasMore()) {
            names.add(e.next().getName());
        }
        return names;
    }
}

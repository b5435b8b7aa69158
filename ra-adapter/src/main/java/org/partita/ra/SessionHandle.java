package org.partita.ra;

import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TopicSession;
import jakarta.jms.TransactionInProgressException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An application's session on a pooled connection: the physical session the managed connection
 * lent, seen through a proxy that keeps the container's rules (no message listeners, no commit or
 * rollback inside a transaction the server drives) and closes what the application made with it
 * when it closes, while a shared physical session stays open for the next borrower.
 */
final class SessionHandle implements InvocationHandler {
    private static final Set<String> CONSUMER_FACTORIES = Set.of(
            "createConsumer",
            "createDurableConsumer",
            "createSharedConsumer",
            "createSharedDurableConsumer",
            "createReceiver",
            "createSubscriber",
            "createDurableSubscriber");
    private static final Set<String> CLOSEABLE_FACTORIES =
            Set.of("createProducer", "createSender", "createPublisher", "createBrowser");

    private final PartitaManagedConnection.BorrowedSession borrowed;
    private final List<AutoCloseable> children = new ArrayList<>();
    private final Session proxy;
    private volatile boolean closed;

    SessionHandle(PartitaManagedConnection.BorrowedSession borrowed) {
        this.borrowed = borrowed;
        this.proxy = (Session) Proxy.newProxyInstance(
                SessionHandle.class.getClassLoader(),
                new Class<?>[] {Session.class, QueueSession.class, TopicSession.class},
                this);
    }

    Session proxy() {
        return proxy;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "equals":
                return self == args[0];
            case "hashCode":
                return System.identityHashCode(self);
            case "toString":
                return "SessionHandle[" + borrowed.session() + "]";
            case "close":
                close();
                return null;
            default:
                break;
        }
        if (closed) {
            throw new IllegalStateException("the session is closed");
        }
        switch (name) {
            case "setMessageListener":
                if (args[0] != null) {
                    throw new IllegalStateException("setMessageListener is not allowed in a Jakarta EE web or EJB"
                            + " container (Jakarta Messaging 12.2); use a message-driven bean");
                }
                return null;
            case "getMessageListener":
                return null;
            case "run":
                throw new IllegalStateException("Session.run is not allowed in a Jakarta EE container");
            case "commit":
            case "rollback":
                if (borrowed.inTransaction()) {
                    throw new TransactionInProgressException(
                            name + " is done by the transaction the server runs," + " not by the session");
                }
                if (borrowed.xaOutsideBranch()) {
                    throw new IllegalStateException(name + " on a session that is not transacted: outside a transaction"
                            + " a container's session acknowledges automatically (Jakarta Messaging 12.3)");
                }
                break;
            case "getTransacted":
                return borrowed.inTransaction() || !borrowed.xaOutsideBranch() && (Boolean) call(method, args);
            case "getAcknowledgeMode":
                return borrowed.inTransaction()
                        ? Session.SESSION_TRANSACTED
                        : borrowed.xaOutsideBranch() ? Session.AUTO_ACKNOWLEDGE : call(method, args);
            default:
                break;
        }
        Object result = call(method, args);
        if (CONSUMER_FACTORIES.contains(name)) {
            MessageConsumer consumer = (MessageConsumer) result;
            track(consumer);
            return ConsumerHandle.wrap(consumer);
        }
        if (CLOSEABLE_FACTORIES.contains(name)) {
            if (result instanceof QueueBrowser b) {
                track(b::close);
            } else {
                track((AutoCloseable) result);
            }
        }
        return result;
    }

    private Object call(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(borrowed.session(), args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private synchronized void track(AutoCloseable c) {
        children.add(c);
    }

    synchronized void close() throws JMSException {
        if (closed) {
            return;
        }
        closed = true;
        JMSException first = null;
        for (AutoCloseable c : children) {
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof JMSException j ? j : new JMSException(e.toString());
                }
            }
        }
        children.clear();
        if (borrowed.owned()) {
            borrowed.session().close();
        }
        if (first != null) {
            throw first;
        }
    }

    void closeQuietly() {
        try {
            close();
        } catch (JMSException e) {
            // the application left it open; the pool takes the connection back regardless
        }
    }
}

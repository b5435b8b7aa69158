package org.partita.jms.client;

import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.TransactionRolledBackException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.partita.jms.transport.BrokerError;

/** Turns node errors into the JMSException subclass the spec prescribes, and waits on futures. */
public final class JmsExceptions {
    /** How long a blocking JMS call waits for the node before giving up. */
    static final long REQUEST_TIMEOUT_SECONDS = 60;

    private JmsExceptions() {}

    public static JMSException from(Throwable t) {
        Throwable c = unwrap(t);
        if (c instanceof JMSException j) {
            return j;
        }
        if (c instanceof BrokerError e) {
            JMSException j = switch (e.code()) {
                case AUTHENTICATION_FAILED, NOT_AUTHORIZED -> new JMSSecurityException(e.getMessage(), e.errorCode());
                case UNKNOWN_DESTINATION, INVALID_DESTINATION ->
                    new InvalidDestinationException(e.getMessage(), e.errorCode());
                case INVALID_SELECTOR -> new InvalidSelectorException(e.getMessage(), e.errorCode());
                case INVALID_CLIENT_ID -> new InvalidClientIDException(e.getMessage(), e.errorCode());
                // a message too large for a frame cannot be sent at the size it has: the same kind of
                // refusal as a node's that takes no message that large
                case RESOURCE_EXHAUSTED, FRAME_TOO_LARGE ->
                    new ResourceAllocationException(e.getMessage(), e.errorCode());
                case TRANSACTION_ROLLED_BACK -> new TransactionRolledBackException(e.getMessage(), e.errorCode());
                case ILLEGAL_STATE -> new IllegalStateException(e.getMessage(), e.errorCode());
                default -> new JMSException(e.getMessage(), e.errorCode());
            };
            j.initCause(e);
            return j;
        }
        JMSException j = new JMSException(String.valueOf(c.getMessage() == null ? c : c.getMessage()));
        j.setLinkedException(c instanceof Exception ex ? ex : new RuntimeException(c));
        j.initCause(c);
        return j;
    }

    /** Waits for a node answer; node errors become JMSExceptions. */
    public static <T> T await(CompletableFuture<T> f) throws JMSException {
        try {
            return f.get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted while waiting for the node");
        } catch (ExecutionException e) {
            throw from(e.getCause());
        } catch (TimeoutException e) {
            throw new JMSException("the node did not answer within " + REQUEST_TIMEOUT_SECONDS + " s");
        }
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}

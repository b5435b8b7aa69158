package org.partita.cli;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import picocli.CommandLine;

/**
 * What {@code partita} exits with, so scripts can tell failures apart. Every failure is one line
 * on standard error, starting with {@code partita: }.
 */
public final class ExitCodes implements CommandLine.IExecutionExceptionHandler {
    /** Done. */
    public static final int OK = 0;
    /** The node refused the request (a bad option, a queue that exists already, ...). */
    public static final int REFUSED = 1;
    /** The command line is wrong (picocli's own code for usage errors). */
    public static final int USAGE = 2;
    /** No node answered at the URL. */
    public static final int UNREACHABLE = 3;
    /** The queue (or other thing named) does not exist. */
    public static final int NOT_FOUND = 4;
    /** The node refused the user name or password. */
    public static final int AUTHENTICATION = 5;

    /** Raised when the connection to the node cannot be made. */
    static final class Unreachable extends Exception {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A refusal found by the CLI itself, with the code to exit with. */
    static final class Refusal extends Exception {
        final int code;

        Refusal(int code, String message) {
            super(message);
            this.code = code;
        }
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        cmd.getErr().println("partita: " + oneLine(e));
        cmd.getErr().flush();
        if (e instanceof Refusal r) {
            return r.code;
        }
        if (e instanceof Unreachable) {
            return e.getCause() instanceof JMSSecurityException ? AUTHENTICATION : UNREACHABLE;
        }
        if (e instanceof JMSSecurityException) {
            return AUTHENTICATION;
        }
        if (e instanceof InvalidDestinationException) {
            return NOT_FOUND;
        }
        if (e instanceof JMSException) {
            return REFUSED;
        }
        return REFUSED;
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        return m.replace('\n', ' ').strip();
    }
}

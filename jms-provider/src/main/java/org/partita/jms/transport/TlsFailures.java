package org.partita.jms.transport;

import io.netty.handler.ssl.NotSslRecordException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.protocol.ErrorCode;

/**
 * A TLS failure said in one line a user can act on, with the code {@link PartitaErrorCodes#TLS_FAILED}:
 * a plain node reached with {@code ssl://} answers bytes that are no TLS record (Netty reports them in
 * hex), and a refused certificate comes wrapped in the JDK's certificate path exceptions.
 */
final class TlsFailures {
    private TlsFailures() {}

    static boolean isTls(Throwable t) {
        return t instanceof SSLException;
    }

    static BrokerError of(Throwable t, String address) {
        String text;
        if (t instanceof NotSslRecordException) {
            text = "the node at " + address + " does not speak TLS: connect with tcp:// (or turn TLS on at the node)";
        } else if (t instanceof SSLHandshakeException
                && mentions(t, "PKIX", "unable to find valid certification path")) {
            text = "TLS handshake with " + address + " failed: the node's certificate is not trusted (give the"
                    + " certificate or its issuer in trustStore)";
        } else if (mentions(t, "No subject alternative", "doesn't match any of the subject alternative names")) {
            text = "TLS handshake with " + address + " failed: the node's certificate does not name this host"
                    + " (use the name it was issued for, or verifyHost=false)";
        } else {
            text = "TLS handshake with " + address + " failed: " + firstLine(t);
        }
        return new BrokerError(ErrorCode.INTERNAL, PartitaErrorCodes.TLS_FAILED, text);
    }

    private static boolean mentions(Throwable t, String... words) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            String m = String.valueOf(c.getMessage());
            for (String w : words) {
                if (m.contains(w)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String firstLine(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        int cut = m.indexOf('\n');
        return cut < 0 ? m : m.substring(0, cut);
    }
}

package org.partita.tck.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.ProviderExtension;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 6.1.2: the client identifier. */
class ClientIdentifierTest extends TckTest {

    @Test
    @DisplayName("6.1.2: a client id set right after creating the connection is returned by getClientID")
    void setClientIdImmediately() throws JMSException {
        String id = uniqueClientId();
        Connection c = connection();
        c.setClientID(id);
        assertEquals(id, c.getClientID());
    }

    @Test
    @DisplayName("6.1.2: a connection from a factory without a configured id has no client id")
    void noClientIdByDefault() throws JMSException {
        assertNull(connection().getClientID());
    }

    @Test
    @DisplayName("6.1.2: setting the client id after creating a session throws IllegalStateException")
    void setClientIdAfterCreateSession() throws JMSException {
        Connection c = connection();
        c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        assertThrows(IllegalStateException.class, () -> c.setClientID(uniqueClientId()));
    }

    @Test
    @DisplayName("6.1.2: setting the client id after start() throws IllegalStateException")
    void setClientIdAfterStart() throws JMSException {
        Connection c = connection();
        c.start();
        assertThrows(IllegalStateException.class, () -> c.setClientID(uniqueClientId()));
    }

    @Test
    @DisplayName("6.1.2: setting the client id twice throws IllegalStateException")
    void setClientIdTwice() throws JMSException {
        Connection c = connection();
        c.setClientID(uniqueClientId());
        assertThrows(IllegalStateException.class, () -> c.setClientID(uniqueClientId()));
    }

    @Test
    @DisplayName("6.1.2: a client id configured in the connection factory is assigned to its connections")
    void administeredClientId() throws JMSException {
        ConnectionFactory cf = lookup(ProviderExtension.CLIENT_ID_FACTORY, ConnectionFactory.class);
        Connection c = track(cf.createConnection());
        assertEquals(ProviderExtension.ADMIN_CLIENT_ID, c.getClientID());
    }

    @Test
    @DisplayName("6.1.2: an administratively configured client id cannot be changed (IllegalStateException)")
    void administeredClientIdCannotBeChanged() throws JMSException {
        ConnectionFactory cf = lookup(ProviderExtension.CLIENT_ID_FACTORY, ConnectionFactory.class);
        Connection c = track(cf.createConnection());
        assertThrows(IllegalStateException.class, () -> c.setClientID(uniqueClientId()));
    }

    @Test
    @DisplayName("6.1.2 / Connection.setClientID: a client id in use by another connection is refused "
            + "with InvalidClientIDException")
    void duplicateClientIdRefused() throws JMSException {
        String id = uniqueClientId();
        connection(id).start();
        Connection second = connection();
        assertThrows(InvalidClientIDException.class, () -> second.setClientID(id));
    }

    @Test
    @DisplayName("6.1.2: a client id becomes free again when the connection using it is closed")
    void clientIdReusableAfterClose() throws JMSException {
        String id = uniqueClientId();
        Connection first = connection(id);
        first.start();
        first.close();
        Connection second = connection();
        second.setClientID(id);
        assertEquals(id, second.getClientID());
    }
}

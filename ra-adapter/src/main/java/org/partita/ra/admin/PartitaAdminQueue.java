package org.partita.ra.admin;

import jakarta.jms.JMSException;
import jakarta.jms.Queue;

/** A Partita queue as an administered object of the adapter (ra.xml {@code adminobject}, JNDI-bound by the server). */
public class PartitaAdminQueue extends AdministeredDestination implements Queue {
    private static final long serialVersionUID = 1L;

    @Override
    public String getQueueName() throws JMSException {
        return checkedName();
    }
}

package org.partita.ra.admin;

import jakarta.jms.JMSException;
import jakarta.jms.Topic;

/** A Partita topic as an administered object of the adapter (ra.xml {@code adminobject}, JNDI-bound by the server). */
public class PartitaAdminTopic extends AdministeredDestination implements Topic {
    private static final long serialVersionUID = 1L;

    @Override
    public String getTopicName() throws JMSException {
        return checkedName();
    }
}

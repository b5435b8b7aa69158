package org.partita.jms.client;

import jakarta.jms.ConnectionMetaData;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/** Versions of the JMS API and of Partita, and the JMSX properties Partita supports. */
final class PartitaConnectionMetaData implements ConnectionMetaData {
    static final List<String> JMSX_PROPERTIES = List.of("JMSXGroupID", "JMSXGroupSeq", "JMSXDeliveryCount");

    @Override
    public String getJMSVersion() {
        return "3.1";
    }

    @Override
    public int getJMSMajorVersion() {
        return 3;
    }

    @Override
    public int getJMSMinorVersion() {
        return 1;
    }

    @Override
    public String getJMSProviderName() {
        return "Partita";
    }

    @Override
    public String getProviderVersion() {
        return "0.1.0";
    }

    @Override
    public int getProviderMajorVersion() {
        return 0;
    }

    @Override
    public int getProviderMinorVersion() {
        return 1;
    }

    @Override
    public Enumeration<String> getJMSXPropertyNames() {
        return Collections.enumeration(JMSX_PROPERTIES);
    }
}

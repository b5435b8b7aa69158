package org.partita.ra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.InvalidPropertyException;
import org.junit.jupiter.api.Test;
import org.partita.ra.inbound.PartitaActivationSpec;

/** An activation spec that cannot work is refused at deployment, naming every property that is wrong. */
class ActivationSpecTest {

    @Test
    void aQueueSpecWithADestinationIsValid() throws Exception {
        PartitaActivationSpec spec = new PartitaActivationSpec();
        spec.setDestination("orders");
        spec.validate();
        assertEquals(15, spec.getMaxSession());
        assertEquals("Auto-acknowledge", spec.getAcknowledgeMode());
    }

    @Test
    void everyWrongPropertyIsNamed() {
        PartitaActivationSpec spec = new PartitaActivationSpec();
        spec.setDestinationType("jakarta.jms.Topic");
        spec.setSubscriptionDurability("Durable");
        spec.setAcknowledgeMode("Client-acknowledge");
        spec.setMaxSession(0);
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, spec::validate);
        for (String named : new String[] {
            "destination or destinationLookup", "subscriptionName", "clientId", "acknowledgeMode", "maxSession"
        }) {
            assertTrue(e.getMessage().contains(named), e.getMessage());
        }
    }

    @Test
    void theNodeDefaultsToTheSystemPropertyThenTheDefaultPort() {
        PartitaResourceAdapter ra = new PartitaResourceAdapter();
        String before = System.getProperty(PartitaResourceAdapter.URL_PROPERTY);
        try {
            System.clearProperty(PartitaResourceAdapter.URL_PROPERTY);
            assertEquals("tcp://127.0.0.1:61700", ra.effectiveUrl());
            System.setProperty(PartitaResourceAdapter.URL_PROPERTY, "tcp://10.1.2.3:7000");
            assertEquals("tcp://10.1.2.3:7000", ra.effectiveUrl());
            ra.setConnectionUrl("tcp://configured:1");
            assertEquals("tcp://configured:1", ra.effectiveUrl());
        } finally {
            if (before == null) {
                System.clearProperty(PartitaResourceAdapter.URL_PROPERTY);
            } else {
                System.setProperty(PartitaResourceAdapter.URL_PROPERTY, before);
            }
        }
    }
}

package org.partita.bench;

/** An ActiveMQ Artemis broker under test, of one server or several. */
interface ArtemisUnderTest extends BrokerUnderTest {

    /** Artemis takes the plain name: its message groups and queues need no options. */
    @Override
    default String queueName(String base, String partitaOptions) {
        return base;
    }
}

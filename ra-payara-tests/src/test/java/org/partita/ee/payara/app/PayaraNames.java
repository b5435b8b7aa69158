package org.partita.ee.payara.app;

/** JNDI names the test applications use, as the test's {@code asadmin} commands bind them. */
public final class PayaraNames {
    /** {@code asadmin create-connector-resource --poolname PartitaPool jms/partita/CF}. */
    public static final String CONNECTION_FACTORY = "jms/partita/CF";
    /** {@code asadmin create-admin-object ... --property Name=ee.lookup jms/queue/ee.lookup}. */
    public static final String LOOKUP_QUEUE = "jms/queue/ee.lookup";

    /** {@code asadmin create-jdbc-resource --connectionpoolid PartitaXaDb jdbc/partita-xa}: an XA H2 database. */
    public static final String DATA_SOURCE = "jdbc/partita-xa";

    private PayaraNames() {}
}

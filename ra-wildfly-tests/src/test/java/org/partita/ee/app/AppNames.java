package org.partita.ee.app;

/** JNDI names the test application uses. */
public final class AppNames {
    /** The Partita connection factory the resource adapter's deployment binds (ironjacamar.xml). */
    public static final String CONNECTION_FACTORY = "java:/jms/partita/CF";
    /** An H2 XA data source the application deploys (partita-ds.xml). */
    public static final String DATA_SOURCE = "java:jboss/datasources/PartitaEeXA";

    private AppNames() {}
}

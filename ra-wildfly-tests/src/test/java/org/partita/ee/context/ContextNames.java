package org.partita.ee.context;

/** JNDI names the context application uses: the adapter's administered objects (Deployments.adapter()). */
public final class ContextNames {
    public static final String QUEUE = "java:/jms/queue/ee.context";
    public static final String LOOKUP_QUEUE = "java:/jms/queue/ee.lookup";
    public static final String NEWS_TOPIC = "java:/jms/topic/ee.news";

    private ContextNames() {}
}

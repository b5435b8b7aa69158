package org.partita.jms.jndi;

import java.util.Hashtable;
import javax.naming.Context;
import javax.naming.NamingException;
import javax.naming.spi.InitialContextFactory;

/**
 * JNDI entry point: set {@code java.naming.factory.initial=org.partita.jms.jndi.PartitaInitialContextFactory}
 * and describe the objects to bind with {@code connectionFactory.<name>=<url>}, {@code queue.<name>=<queue>}
 * and {@code topic.<name>=<topic>} (see docs/jndi.md and {@link EnvironmentBindings}). The context is
 * read-only and lives in memory; {@code dynamicQueues/<queue>} and {@code dynamicTopics/<topic>} look
 * destinations up without declaring them.
 */
public class PartitaInitialContextFactory implements InitialContextFactory {

    public PartitaInitialContextFactory() {}

    /** Reads the environment (JNDI has already merged jndi.properties and system properties into it). */
    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) throws NamingException {
        Hashtable<Object, Object> env = new Hashtable<>();
        if (environment != null) {
            env.putAll(environment);
        }
        return new ReadOnlyContext(env, EnvironmentBindings.read(env));
    }
}

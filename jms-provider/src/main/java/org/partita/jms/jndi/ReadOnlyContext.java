package org.partita.jms.jndi;

import java.util.ArrayList;
import java.util.Hashtable;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Properties;
import java.util.function.BiFunction;
import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.CompoundName;
import javax.naming.Context;
import javax.naming.InvalidNameException;
import javax.naming.Name;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NameParser;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.NotContextException;
import javax.naming.OperationNotSupportedException;
import org.partita.jms.destination.PartitaQueue;
import org.partita.jms.destination.PartitaTopic;

/**
 * The in-memory, read-only context built by {@link PartitaInitialContextFactory}. One flat namespace:
 * a name is looked up exactly as it was bound ({@code jms/orders} and {@code a.b} are single names).
 * {@code dynamicQueues/<queue>} and {@code dynamicTopics/<topic>} create destinations on lookup.
 */
final class ReadOnlyContext implements Context {
    static final String DYNAMIC_QUEUES = "dynamicQueues/";
    static final String DYNAMIC_TOPICS = "dynamicTopics/";

    private static final Properties FLAT_SYNTAX = new Properties();

    static {
        FLAT_SYNTAX.put("jndi.syntax.direction", "flat");
    }
    /** Parses any string into a single-component name. */
    static final NameParser PARSER = name -> new CompoundName(name, FLAT_SYNTAX);

    private final Hashtable<Object, Object> env;
    private final Map<String, Object> bindings;
    private volatile boolean closed;

    ReadOnlyContext(Hashtable<Object, Object> env, Map<String, Object> bindings) {
        this.env = env;
        this.bindings = bindings;
    }

    // ---- lookups

    @Override
    public Object lookup(String name) throws NamingException {
        checkOpen();
        if (name == null || name.isEmpty()) {
            @SuppressWarnings("unchecked")
            Hashtable<Object, Object> copy = (Hashtable<Object, Object>) env.clone();
            return new ReadOnlyContext(copy, bindings);
        }
        Object bound = bindings.get(name);
        if (bound != null) {
            return bound;
        }
        if (name.startsWith(DYNAMIC_QUEUES)) {
            return new PartitaQueue(dynamicName(name, DYNAMIC_QUEUES));
        }
        if (name.startsWith(DYNAMIC_TOPICS)) {
            return new PartitaTopic(dynamicName(name, DYNAMIC_TOPICS));
        }
        NameNotFoundException e =
                new NameNotFoundException("name '" + name + "' is not bound in the Partita JNDI context"
                        + " (bound: " + bindings.keySet() + "; declare it with connectionFactory.*, queue.* or topic.*,"
                        + " or use " + DYNAMIC_QUEUES + "<queue> / " + DYNAMIC_TOPICS + "<topic>)");
        e.setRemainingName(PARSER.parse(name));
        throw e;
    }

    @Override
    public Object lookup(Name name) throws NamingException {
        return lookup(flat(name));
    }

    @Override
    public Object lookupLink(String name) throws NamingException {
        return lookup(name);
    }

    @Override
    public Object lookupLink(Name name) throws NamingException {
        return lookup(name);
    }

    private static String dynamicName(String name, String prefix) throws InvalidNameException {
        String destination = name.substring(prefix.length());
        if (destination.isBlank()) {
            throw new InvalidNameException("'" + name + "' lacks a destination name after '" + prefix + "'");
        }
        return destination;
    }

    // ---- listing

    @Override
    public NamingEnumeration<NameClassPair> list(String name) throws NamingException {
        return enumerate(name, (n, o) -> new NameClassPair(n, o.getClass().getName()));
    }

    @Override
    public NamingEnumeration<NameClassPair> list(Name name) throws NamingException {
        return list(flat(name));
    }

    @Override
    public NamingEnumeration<Binding> listBindings(String name) throws NamingException {
        return enumerate(name, Binding::new);
    }

    @Override
    public NamingEnumeration<Binding> listBindings(Name name) throws NamingException {
        return listBindings(flat(name));
    }

    private <T extends NameClassPair> NamingEnumeration<T> enumerate(String name, BiFunction<String, Object, T> entry)
            throws NamingException {
        checkOpen();
        if (name != null && !name.isEmpty()) {
            Object target = lookup(name); // NameNotFoundException if unknown
            throw new NotContextException("'" + name + "' is a "
                    + target.getClass().getSimpleName() + ", not a context; only the root context can be listed");
        }
        List<T> entries = new ArrayList<>(bindings.size());
        bindings.forEach((n, o) -> entries.add(entry.apply(n, o)));
        return new ListEnumeration<>(entries.iterator());
    }

    // ---- names

    @Override
    public NameParser getNameParser(String name) {
        return PARSER;
    }

    @Override
    public NameParser getNameParser(Name name) {
        return PARSER;
    }

    @Override
    public Name composeName(Name name, Name prefix) throws NamingException {
        CompositeName result = new CompositeName();
        for (int i = 0; i < prefix.size(); i++) {
            result.add(prefix.get(i));
        }
        for (int i = 0; i < name.size(); i++) {
            result.add(name.get(i));
        }
        return result;
    }

    @Override
    public String composeName(String name, String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            return name;
        }
        return name.isEmpty() ? prefix : prefix + "/" + name;
    }

    @Override
    public String getNameInNamespace() {
        return "";
    }

    /** The name as one flat string: the components joined by '/', unescaped. */
    private static String flat(Name name) {
        if (name == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < name.size(); i++) {
            if (i > 0) {
                sb.append('/');
            }
            sb.append(name.get(i));
        }
        return sb.toString();
    }

    // ---- environment and lifecycle

    @Override
    public Hashtable<?, ?> getEnvironment() throws NamingException {
        checkOpen();
        return (Hashtable<?, ?>) env.clone();
    }

    /** Changes this context's environment only; the bindings were fixed when the context was created. */
    @Override
    public Object addToEnvironment(String propName, Object propVal) throws NamingException {
        checkOpen();
        return env.put(propName, propVal);
    }

    @Override
    public Object removeFromEnvironment(String propName) throws NamingException {
        checkOpen();
        return env.remove(propName);
    }

    @Override
    public void close() {
        closed = true;
    }

    private void checkOpen() throws NamingException {
        if (closed) {
            throw new NamingException("the Partita JNDI context is closed; create a new InitialContext");
        }
    }

    // ---- read-only: every mutation is refused

    private static OperationNotSupportedException readOnly(String operation, Object name) {
        return new OperationNotSupportedException("the Partita JNDI context is read-only, cannot " + operation + " '"
                + name + "'; declare objects with connectionFactory.*, queue.* and topic.* environment properties");
    }

    @Override
    public void bind(Name name, Object obj) throws NamingException {
        throw readOnly("bind", name);
    }

    @Override
    public void bind(String name, Object obj) throws NamingException {
        throw readOnly("bind", name);
    }

    @Override
    public void rebind(Name name, Object obj) throws NamingException {
        throw readOnly("rebind", name);
    }

    @Override
    public void rebind(String name, Object obj) throws NamingException {
        throw readOnly("rebind", name);
    }

    @Override
    public void unbind(Name name) throws NamingException {
        throw readOnly("unbind", name);
    }

    @Override
    public void unbind(String name) throws NamingException {
        throw readOnly("unbind", name);
    }

    @Override
    public void rename(Name oldName, Name newName) throws NamingException {
        throw readOnly("rename", oldName);
    }

    @Override
    public void rename(String oldName, String newName) throws NamingException {
        throw readOnly("rename", oldName);
    }

    @Override
    public void destroySubcontext(Name name) throws NamingException {
        throw readOnly("destroy subcontext", name);
    }

    @Override
    public void destroySubcontext(String name) throws NamingException {
        throw readOnly("destroy subcontext", name);
    }

    @Override
    public Context createSubcontext(Name name) throws NamingException {
        throw readOnly("create subcontext", name);
    }

    @Override
    public Context createSubcontext(String name) throws NamingException {
        throw readOnly("create subcontext", name);
    }

    @Override
    public String toString() {
        return "PartitaJndiContext" + bindings.keySet();
    }

    private static final class ListEnumeration<T> implements NamingEnumeration<T> {
        private final Iterator<T> it;

        ListEnumeration(Iterator<T> it) {
            this.it = it;
        }

        @Override
        public T next() {
            return nextElement();
        }

        @Override
        public boolean hasMore() {
            return it.hasNext();
        }

        @Override
        public boolean hasMoreElements() {
            return it.hasNext();
        }

        @Override
        public T nextElement() {
            if (!it.hasNext()) {
                throw new NoSuchElementException();
            }
            return it.next();
        }

        @Override
        public void close() {}
    }
}

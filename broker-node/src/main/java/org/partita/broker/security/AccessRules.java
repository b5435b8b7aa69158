package org.partita.broker.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.partita.broker.config.ConfigException;
import org.partita.broker.core.topic.TopicPattern;

/**
 * Roles and their permissions, read from a roles file (docs/security.md):
 *
 * <pre>
 * role orders-app = alice, orders-service
 * allow orders-app = send, consume, browse on orders, orders/*
 * allow admins = manage on &gt;
 * allow * = send on public/&gt;
 * </pre>
 *
 * Patterns are matched as topic subscriptions match topic names ({@link TopicPattern}: levels
 * separated by {@code /}, {@code *} one level, {@code >} one or more trailing levels). Role
 * {@code *} is every connection, anonymous ones included. Whatever is not allowed is refused.
 */
public final class AccessRules implements Authorizer {
    /** The role every connection has. */
    public static final String EVERYONE = "*";

    private record Grant(Set<Operation> operations, List<TopicPattern> patterns) {}

    private final Map<String, Set<String>> rolesOfUser;
    private final Map<String, List<Grant>> grantsOfRole;

    private AccessRules(Map<String, Set<String>> rolesOfUser, Map<String, List<Grant>> grantsOfRole) {
        this.rolesOfUser = rolesOfUser;
        this.grantsOfRole = grantsOfRole;
    }

    public static AccessRules load(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new ConfigException("cannot read roles file " + file + ": " + e);
        }
        Map<String, Set<String>> rolesOfUser = new HashMap<>();
        Map<String, List<Grant>> grants = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = file + ":" + (i + 1);
            try {
                read(line, rolesOfUser, grants);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(where + ": " + e.getMessage());
            }
        }
        return new AccessRules(rolesOfUser, grants);
    }

    private static void read(String line, Map<String, Set<String>> rolesOfUser, Map<String, List<Grant>> grants) {
        int eq = line.indexOf('=');
        String[] head = (eq < 0 ? line : line.substring(0, eq)).strip().split("\\s+");
        if (eq < 0 || head.length != 2 || !(head[0].equals("role") || head[0].equals("allow"))) {
            throw new IllegalArgumentException("expected 'role <role> = <user>, ...' or"
                    + " 'allow <role> = <operation>, ... on <pattern>, ...', found '" + line + "'");
        }
        String role = head[1];
        String value = line.substring(eq + 1).strip();
        if (head[0].equals("role")) {
            if (role.equals(EVERYONE)) {
                throw new IllegalArgumentException("role '*' is every connection; it has no members to list");
            }
            for (String user : list(value, "user")) {
                rolesOfUser.computeIfAbsent(user, u -> new HashSet<>()).add(role);
            }
            return;
        }
        int on = value.lastIndexOf(" on ");
        if (on < 0) {
            throw new IllegalArgumentException("expected '<operation>, ... on <pattern>, ...' after 'allow " + role
                    + " ='," + " found '" + value + "'");
        }
        Set<Operation> ops = EnumSet.noneOf(Operation.class);
        for (String word : list(value.substring(0, on), "operation")) {
            if (word.equalsIgnoreCase("all")) {
                ops.addAll(EnumSet.allOf(Operation.class));
                continue;
            }
            Operation op = Operation.named(word);
            if (op == null) {
                throw new IllegalArgumentException("unknown operation '" + word + "'; known: " + known());
            }
            ops.add(op);
        }
        List<TopicPattern> patterns = new ArrayList<>();
        for (String p : list(value.substring(on + 4), "pattern")) {
            patterns.add(TopicPattern.of(p));
        }
        grants.computeIfAbsent(role, r -> new ArrayList<>()).add(new Grant(ops, patterns));
    }

    private static List<String> list(String text, String what) {
        List<String> items = new ArrayList<>();
        for (String item : text.split(",")) {
            if (!item.isBlank()) {
                items.add(item.strip());
            }
        }
        if (items.isEmpty()) {
            throw new IllegalArgumentException("expected at least one " + what);
        }
        return items;
    }

    private static String known() {
        StringBuilder b = new StringBuilder();
        for (Operation o : Operation.values()) {
            b.append(o.word()).append(", ");
        }
        return b.append("all").toString();
    }

    @Override
    public boolean permits(String user, Operation operation, String destination) {
        if (operation == Operation.CLIENT_ID && user != null && user.equals(destination)) {
            return true; // a user's own name is always its client id to take
        }
        if (permitsRole(EVERYONE, operation, destination)) {
            return true;
        }
        for (String role : user == null ? Set.<String>of() : rolesOfUser.getOrDefault(user, Set.of())) {
            if (permitsRole(role, operation, destination)) {
                return true;
            }
        }
        return false;
    }

    private boolean permitsRole(String role, Operation operation, String destination) {
        for (Grant g : grantsOfRole.getOrDefault(role, List.of())) {
            if (!g.operations().contains(operation)) {
                continue;
            }
            for (TopicPattern p : g.patterns()) {
                // the node as a whole is only granted by '>', every name
                if (destination == null ? p.text().equals(">") : p.matches(destination)) {
                    return true;
                }
            }
        }
        return false;
    }
}

package org.partita.broker.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.ConfigException;

class AccessRulesTest {
    @TempDir
    Path dir;

    private AccessRules rules(String text) throws Exception {
        Path f = dir.resolve("roles.properties");
        Files.writeString(f, text);
        return AccessRules.load(f);
    }

    @Test
    void patternsAreThoseOfTopicSubscriptions() throws Exception {
        AccessRules r = rules("""
                role app = alice, bob
                allow app = send, consume on orders, orders/*
                allow app = browse on audit/>
                """);
        assertTrue(r.permits("alice", Operation.SEND, "orders"), "an exact name");
        assertTrue(r.permits("bob", Operation.CONSUME, "orders/eu"), "* is one level");
        assertFalse(r.permits("bob", Operation.CONSUME, "orders/eu/late"), "only one");
        assertFalse(r.permits("bob", Operation.BROWSE, "orders"), "another operation");
        assertTrue(r.permits("bob", Operation.BROWSE, "audit/2026/12"), "> is the rest");
        assertFalse(r.permits("bob", Operation.BROWSE, "audit"), "> needs at least one level");
        assertFalse(r.permits("carol", Operation.SEND, "orders"), "not in the role");
        assertFalse(r.permits(null, Operation.SEND, "orders"), "anonymous has no role");
    }

    @Test
    void everyoneAllAndTheNodeAsAWhole() throws Exception {
        AccessRules r = rules("""
                role ops = carol
                allow ops = all on >
                allow team = manage on team/>
                role team = dave
                allow * = send on public/>
                """);
        assertTrue(r.permits(null, Operation.SEND, "public/news"), "role * includes anonymous connections");
        assertTrue(r.permits("carol", Operation.MANAGE, null), "manage on > covers node-wide commands");
        assertTrue(r.permits("carol", Operation.CLIENT_ID, "anything"));
        assertTrue(r.permits("dave", Operation.MANAGE, "team/q"));
        assertFalse(r.permits("dave", Operation.MANAGE, null), "only > grants the node as a whole");
        assertTrue(r.permits("dave", Operation.CLIENT_ID, "dave"), "a user's own name is its client id");
        assertFalse(r.permits("dave", Operation.CLIENT_ID, "carol"));
    }

    @Test
    void badLinesNameTheFileAndLine() {
        assertTrue(assertThrows(ConfigException.class, () -> rules("role a = x\nallow a = send orders\n"))
                .getMessage()
                .contains("roles.properties:2: expected '<operation>, ... on <pattern>"));
        assertTrue(assertThrows(ConfigException.class, () -> rules("permit a = send on x\n"))
                .getMessage()
                .contains("roles.properties:1: expected 'role <role>"));
        assertTrue(assertThrows(ConfigException.class, () -> rules("allow a = send on x/>/y\n"))
                .getMessage()
                .contains("'>' may only be the last level"));
        assertTrue(assertThrows(ConfigException.class, () -> rules("role * = alice\n"))
                .getMessage()
                .contains("every connection"));
    }
}

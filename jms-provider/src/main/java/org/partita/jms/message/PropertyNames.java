package org.partita.jms.message;

import java.util.Locale;
import java.util.Set;

/**
 * Property names must be usable in a message selector (spec section 3.8.1.1): a Java identifier
 * that is not one of the selector's literals or operators. Those words are matched without regard
 * to case because the selector grammar itself ignores their case, so a property called {@code and}
 * could never be referenced.
 */
final class PropertyNames {
    private static final Set<String> RESERVED = Set.of(
            "NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE");

    private PropertyNames() {
    }

    static void validate(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("property name must not be null or empty");
        }
        if (!Character.isJavaIdentifierStart(name.codePointAt(0))) {
            throw new IllegalArgumentException("property name '" + name + "' does not start like a Java identifier");
        }
        for (int i = Character.charCount(name.codePointAt(0)); i < name.length(); ) {
            int cp = name.codePointAt(i);
            if (!Character.isJavaIdentifierPart(cp)) {
                throw new IllegalArgumentException("property name '" + name + "' contains an invalid character");
            }
            i += Character.charCount(cp);
        }
        if (RESERVED.contains(name.toUpperCase(Locale.ROOT))) {
            throw new IllegalArgumentException("property name '" + name + "' is a reserved selector word");
        }
    }
}

package org.partita.jms.message;

/**
 * Property names (Jakarta Messaging 3.1, 3.5.1): only a null or empty name is refused. A name a
 * selector cannot refer to ({@code and}, {@code true}, {@code order-id}) is still a valid property:
 * other providers accept such names and existing applications set them.
 */
final class PropertyNames {

    private PropertyNames() {}

    static void validate(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("property name must not be null or empty");
        }
    }
}

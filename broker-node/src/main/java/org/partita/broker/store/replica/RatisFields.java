package org.partita.broker.store.replica;

import java.lang.reflect.Field;

/**
 * The private fields of Ratis this package works around Ratis's own bugs through ({@link LightEntries},
 * {@link StuckTransfers}): each looked up once, made accessible, or null once a Ratis version no longer
 * has it, so that its user does nothing then.
 */
final class RatisFields {
    private RatisFields() {}

    /** {@code type}'s declared field {@code name}, accessible; null if there is none. */
    static Field declared(String type, String name) {
        try {
            Field f = Class.forName(type).getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}

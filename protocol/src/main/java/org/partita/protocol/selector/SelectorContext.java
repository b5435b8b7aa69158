package org.partita.protocol.selector;

/**
 * What a {@link Selector} reads while it is evaluated: the value of a header or property
 * identifier.
 */
@FunctionalInterface
public interface SelectorContext {

    /**
     * The value of {@code identifier}: a {@link Boolean}, a {@link String}, a {@link Byte},
     * {@link Short}, {@link Integer}, {@link Long}, {@link Float} or {@link Double}; null when the
     * identifier is absent (it is then a SQL NULL). Values of any other type never compare equal to
     * anything and are not numeric.
     */
    Object value(String identifier);
}

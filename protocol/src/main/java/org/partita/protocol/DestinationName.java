package org.partita.protocol;

/**
 * How a destination is named on the wire: {@code queue:orders}, {@code topic:mfg/a},
 * {@code temp-queue:...}, {@code temp-topic:...}. The part after the colon may carry options
 * ({@code orders?partitions=8}); the broker interprets them.
 */
public record DestinationName(Kind kind, String name) {

    public enum Kind {
        QUEUE("queue"),
        TOPIC("topic"),
        TEMP_QUEUE("temp-queue"),
        TEMP_TOPIC("temp-topic");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }

        public boolean isQueue() {
            return this == QUEUE || this == TEMP_QUEUE;
        }

        public boolean isTemporary() {
            return this == TEMP_QUEUE || this == TEMP_TOPIC;
        }
    }

    public DestinationName {
        java.util.Objects.requireNonNull(kind, "kind");
        if (name == null || name.isEmpty()) {
            throw new ProtocolException(ErrorCode.INVALID_REQUEST, "destination name is empty");
        }
    }

    public String encode() {
        return kind.prefix + ":" + name;
    }

    public static DestinationName parse(String encoded) {
        int colon = encoded == null ? -1 : encoded.indexOf(':');
        if (colon > 0) {
            String prefix = encoded.substring(0, colon);
            for (Kind k : Kind.values()) {
                if (k.prefix.equals(prefix)) {
                    return new DestinationName(k, encoded.substring(colon + 1));
                }
            }
        }
        throw new ProtocolException(ErrorCode.INVALID_REQUEST, "not a destination: " + encoded);
    }

    @Override
    public String toString() {
        return encode();
    }
}

package org.partita.broker.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RateLimitedLogTest {
    private final Logger logger = (Logger) LoggerFactory.getLogger("rate-limited-test");
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final AtomicLong clock = new AtomicLong();
    private RateLimitedLog log;

    @BeforeEach
    void attach() {
        lines.start();
        logger.addAppender(lines);
        logger.setLevel(Level.INFO);
        logger.setAdditive(false); // the lines are checked here, not printed
        log = new RateLimitedLog(logger, 3, Duration.ofSeconds(10), clock::get);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(lines);
    }

    @Test
    void aBurstLogsTheFirstLinesOfTheWindowAndCountsTheRest() {
        for (int i = 0; i < 10_000; i++) {
            log.info("connection.malformed", "closing connection {}", i);
        }
        assertEquals(3, lines.list.size());
        assertEquals(9_997, log.pendingSuppressed());

        clock.addAndGet(Duration.ofSeconds(10).toNanos());
        log.info("connection.malformed", "closing connection {}", "next");
        assertEquals(4, lines.list.size());
        ILoggingEvent last = lines.list.get(3);
        assertEquals("closing connection next (9997 more suppressed in the last 10 s)", last.getFormattedMessage());
        assertTrue(
                last.getKeyValuePairs().stream().anyMatch(kv -> kv.key.equals("suppressed") && kv.value.equals(9997L)));
        assertTrue(last.getKeyValuePairs().stream()
                .anyMatch(kv -> kv.key.equals("event") && kv.value.equals("connection.malformed")));
        assertEquals(0, log.pendingSuppressed());
    }

    @Test
    void eachEventHasItsOwnWindow() {
        for (int i = 0; i < 5; i++) {
            log.info("connection.malformed", "a {}", i);
            log.warn("message.dropped", "b {}", i);
        }
        assertEquals(6, lines.list.size());
    }

    @Test
    void aTrailingThrowableIsTheCauseAndTheCountStaysInTheText() {
        for (int i = 0; i < 4; i++) {
            log.warn(
                    "store.fault", "write failed on {}", "journal", new java.io.IOException("No space left on device"));
        }
        clock.addAndGet(Duration.ofSeconds(30).toNanos());
        log.warn("store.fault", "write failed on {}", "journal", new java.io.IOException("No space left on device"));
        ILoggingEvent last = lines.list.get(lines.list.size() - 1);
        assertNotNull(last.getThrowableProxy());
        assertEquals("write failed on journal (1 more suppressed in the last 30 s)", last.getFormattedMessage());
    }
}

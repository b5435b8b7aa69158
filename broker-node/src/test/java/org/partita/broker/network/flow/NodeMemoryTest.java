package org.partita.broker.network.flow;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Who may finish a large frame past the in-flight budget. */
class NodeMemoryTest {
    private final NodeMemory memory = new NodeMemory(1000, 1000, 1000, () -> 0);
    private final NodeMemory.Reader first = () -> false;
    private final NodeMemory.Reader second = () -> false;

    @Test
    void oneConnectionFinishesItsFrameWhenPartialFramesAloneSpendTheBudget() {
        memory.framing(600);
        memory.framing(600);
        assertTrue(memory.inFlightSpent());
        assertTrue(memory.mayFinish(first), "else the two frames wait on each other for ever");
        assertFalse(memory.mayFinish(second), "one at a time");
    }

    @Test
    void nobodyFinishesAFrameWhileDecodedSendsAloneSpendTheBudget() {
        memory.framing(600);
        memory.framing(600);
        assertTrue(memory.mayFinish(first));
        memory.framed(600);
        memory.reading(1200); // the first frame, decoded: a send waiting to be stored
        memory.finished(first);
        assertFalse(
                memory.mayFinish(second),
                "the send leaves the budget once stored: another frame would only add to the heap");
        memory.done(1200);
        assertTrue(memory.mayFinish(second));
    }
}

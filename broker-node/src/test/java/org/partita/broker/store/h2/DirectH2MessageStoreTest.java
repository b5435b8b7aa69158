package org.partita.broker.store.h2;

import java.nio.file.Path;

/** Every store test again, with each group committed into H2 itself instead of through the journal. */
class DirectH2MessageStoreTest extends H2MessageStoreTest {

    @Override
    H2MessageStore openStore(Path dir) {
        return H2MessageStore.open(dir, true, H2MessageStore.Layout.DIRECT);
    }
}

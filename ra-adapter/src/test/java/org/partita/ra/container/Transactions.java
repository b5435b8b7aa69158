package org.partita.ra.container;

import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;
import jakarta.transaction.TransactionManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The container's transaction manager: Narayana standalone, its log in a temporary folder. Narayana
 * keeps its configuration in static beans, so the folder is chosen once per JVM.
 */
public final class Transactions {
    private static TransactionManager manager;

    private Transactions() {}

    public static synchronized TransactionManager manager() {
        if (manager == null) {
            Path store;
            try {
                store = Files.createTempDirectory("ra-narayana-store");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (String name : new String[] {null, "communicationStore", "stateStore"}) {
                ObjectStoreEnvironmentBean bean = name == null
                        ? BeanPopulator.getDefaultInstance(ObjectStoreEnvironmentBean.class)
                        : BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, name);
                bean.setObjectStoreDir(store.toString());
            }
            manager = com.arjuna.ats.jta.TransactionManager.transactionManager();
        }
        return manager;
    }
}

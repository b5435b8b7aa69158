package org.partita.broker.it;

import com.arjuna.ats.arjuna.common.CoordinatorEnvironmentBean;
import com.arjuna.ats.arjuna.common.CoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.RecoveryEnvironmentBean;
import com.arjuna.ats.arjuna.recovery.RecoveryManager;
import com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule;
import com.arjuna.ats.jta.common.JTAEnvironmentBean;
import com.arjuna.ats.jta.recovery.XAResourceRecoveryHelper;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;
import jakarta.transaction.TransactionManager;
import java.nio.file.Path;
import java.util.List;

/**
 * Narayana standalone, as an application would set it up: its transaction log in a folder of the
 * test's, one node identifier, and a recovery manager that a test drives scan by scan. Narayana's
 * configuration lives in static beans, so a JVM is set up once.
 */
final class NarayanaSetup {
    static final String NODE_ID = "partita-test";
    private static Path configuredStore;

    private NarayanaSetup() {}

    /** Points Narayana at {@code store}; must come before its first use in this JVM. */
    static synchronized void configure(Path store) {
        if (configuredStore != null) {
            if (!configuredStore.equals(store)) {
                throw new IllegalStateException("Narayana already uses " + configuredStore + " in this JVM");
            }
            return;
        }
        for (String name : new String[] {null, "communicationStore", "stateStore"}) {
            ObjectStoreEnvironmentBean bean = name == null
                    ? BeanPopulator.getDefaultInstance(ObjectStoreEnvironmentBean.class)
                    : BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, name);
            bean.setObjectStoreDir(store.toString());
        }
        try {
            BeanPopulator.getDefaultInstance(CoreEnvironmentBean.class).setNodeIdentifier(NODE_ID);
        } catch (com.arjuna.ats.arjuna.common.CoreEnvironmentBeanException e) {
            throw new IllegalStateException(e);
        }
        BeanPopulator.getDefaultInstance(JTAEnvironmentBean.class).setXaRecoveryNodes(List.of(NODE_ID));
        BeanPopulator.getDefaultInstance(CoordinatorEnvironmentBean.class).setDefaultTimeout(60);
        RecoveryEnvironmentBean recovery = BeanPopulator.getDefaultInstance(RecoveryEnvironmentBean.class);
        recovery.setRecoveryBackoffPeriod(1); // seconds between a scan's two passes
        recovery.setPeriodicRecoveryPeriod(3600); // the tests scan when they want to
        BeanPopulator.getDefaultInstance(JTAEnvironmentBean.class).setOrphanSafetyInterval(0);
        configuredStore = store;
    }

    static TransactionManager transactionManager() {
        return com.arjuna.ats.jta.TransactionManager.transactionManager();
    }

    /** The recovery manager, with {@code helper} naming the resources to recover. */
    static RecoveryManager recoveryManager(XAResourceRecoveryHelper helper) {
        RecoveryManager manager = RecoveryManager.manager(RecoveryManager.INDIRECT_MANAGEMENT);
        XARecoveryModule module = XARecoveryModule.getRegisteredXARecoveryModule();
        module.addXAResourceRecoveryHelper(helper);
        return manager;
    }

    static void removeHelper(XAResourceRecoveryHelper helper) {
        XARecoveryModule.getRegisteredXARecoveryModule().removeXAResourceRecoveryHelper(helper);
    }
}

package org.partita.broker.it;

import com.arjuna.ats.arjuna.recovery.RecoveryManager;
import jakarta.transaction.TransactionManager;
import java.nio.file.Path;

/**
 * A transaction manager's process, for {@link TmCrashXaTest}: {@code work STORE URL DATABASE} does
 * the work of {@link XaWork} in a Narayana transaction and stops dead in the commit phase (after
 * both resources prepared and the decision was logged), saying so, until it is killed;
 * {@code recover STORE URL DATABASE} runs Narayana's recovery over the same log and exits.
 */
public final class XaTmProcess {
    static final String IN_COMMIT = "XA-TM: in the commit phase";
    static final String RECOVERED = "XA-TM: recovery scans done";

    private XaTmProcess() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path store = Path.of(args[1]);
        String url = args[2];
        Path database = Path.of(args[3]);
        NarayanaSetup.configure(store);
        if (mode.equals("work")) {
            TransactionManager tm = NarayanaSetup.transactionManager();
            XaWork work = XaWork.open(url, database);
            work.doWork(tm, (name, resource) -> XaWork.beforeCommit(resource, XaTmProcess::stopDead));
            tm.commit();
            System.out.println("XA-TM: committed, which this test never wants");
            System.exit(3);
        } else {
            try (RecoveryResources resources = new RecoveryResources(() -> url, database)) {
                RecoveryManager recovery = NarayanaSetup.recoveryManager(resources);
                recovery.scan();
                recovery.scan();
                recovery.terminate();
            }
            System.out.println(RECOVERED);
            System.out.flush();
            System.exit(0);
        }
    }

    /** The first commit call: the decision is in the log, nothing is committed yet. Wait to be killed. */
    private static void stopDead() {
        System.out.println(IN_COMMIT);
        System.out.flush();
        try {
            Thread.sleep(Long.MAX_VALUE); // this process waits to be killed: the test's point
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

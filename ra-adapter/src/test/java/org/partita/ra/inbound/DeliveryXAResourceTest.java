package org.partita.ra.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;

class DeliveryXAResourceTest {
    private final List<String> calls = new ArrayList<>();
    private final XAResource session = (XAResource) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {XAResource.class}, (proxy, method, args) -> {
                calls.add(method.getName()
                        + (args != null && args.length == 2 && args[1] instanceof Integer f ? " " + f : ""));
                return method.getReturnType() == int.class ? 0 : method.getReturnType() == boolean.class ? false : null;
            });
    private final Xid xid = new Xid() {
        public int getFormatId() {
            return 1;
        }

        public byte[] getGlobalTransactionId() {
            return new byte[] {1};
        }

        public byte[] getBranchQualifier() {
            return new byte[] {2};
        }
    };

    @Test
    void aFailedDeliveryEndsItsBranchWithTmfailAndTheNextBranchEndsNormally() throws Exception {
        DeliveryXAResource r = new DeliveryXAResource(session);
        r.start(xid, XAResource.TMNOFLAGS);
        r.failDelivery();
        r.end(xid, XAResource.TMSUCCESS);
        r.start(xid, XAResource.TMNOFLAGS);
        r.end(xid, XAResource.TMSUCCESS);
        assertEquals(
                List.of(
                        "start " + XAResource.TMNOFLAGS,
                        "end " + XAResource.TMFAIL,
                        "start " + XAResource.TMNOFLAGS,
                        "end " + XAResource.TMSUCCESS),
                calls);
    }

    @Test
    void aSuspendedBranchOfAFailedDeliveryIsSuspendedNotFailed() throws Exception {
        DeliveryXAResource r = new DeliveryXAResource(session);
        r.start(xid, XAResource.TMNOFLAGS);
        r.failDelivery();
        r.end(xid, XAResource.TMSUSPEND);
        r.start(xid, XAResource.TMRESUME);
        r.end(xid, XAResource.TMSUCCESS);
        assertEquals(
                List.of(
                        "start " + XAResource.TMNOFLAGS,
                        "end " + XAResource.TMSUSPEND,
                        "start " + XAResource.TMRESUME,
                        "end " + XAResource.TMFAIL),
                calls);
    }

    @Test
    void theWaitAfterFailuresInARowDoublesUpToItsBound() {
        assertEquals(
                List.of(100L, 200L, 400L, 800L, 1600L, 2000L, 2000L),
                List.of(1, 2, 3, 4, 5, 6, 40).stream()
                        .map(FailurePause::delayAfter)
                        .toList());
    }
}

package org.partita.ra.context;

import jakarta.jms.JMSException;
import org.partita.jms.client.JmsRuntimeExceptions;

/** The simplified API's rule: every JMSException of the classic API reaches the caller as its unchecked counterpart. */
final class Unchecked {
    private Unchecked() {}

    @FunctionalInterface
    interface Call<T> {
        T call() throws JMSException;
    }

    @FunctionalInterface
    interface Action {
        void run() throws JMSException;
    }

    static <T> T call(Call<T> call) {
        try {
            return call.call();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    static void run(Action action) {
        try {
            action.run();
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }
}

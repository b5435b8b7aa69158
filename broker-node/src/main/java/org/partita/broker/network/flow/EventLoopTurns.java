package org.partita.broker.network.flow;

import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import org.partita.broker.store.ThreadTurns;

/**
 * The turns of Netty's I/O event loops: one turn reads every ready connection and runs the queued
 * tasks; work for its end runs after them ({@link SingleThreadEventLoop#executeAfterEventLoopIteration}).
 * Only I/O loops ({@link SingleThreadIoEventLoop}) run such work after every turn; a loop without I/O
 * ({@code DefaultEventLoop}) runs it only when it shuts down, so its threads have no turns here.
 */
public final class EventLoopTurns implements ThreadTurns {
    public static final EventLoopTurns INSTANCE = new EventLoopTurns();

    private EventLoopTurns() {}

    @Override
    public boolean atEndOfTurn(Runnable work) {
        EventExecutor current = ThreadExecutorMap.currentExecutor();
        if (current instanceof SingleThreadIoEventLoop loop && loop.inEventLoop() && !loop.isShuttingDown()) {
            loop.executeAfterEventLoopIteration(work);
            return true;
        }
        return false;
    }
}

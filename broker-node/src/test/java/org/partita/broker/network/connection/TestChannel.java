package org.partita.broker.network.connection;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.AbstractEventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.concurrent.Ticker;
import java.net.SocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * An {@link EmbeddedChannel} whose event loop is a {@link TestEventLoop}. Netty's embedded loop
 * counts every thread as its own, so the broker's threads would write into the channel (a delivery,
 * the answer to a stored send) while the test reads it. Here a thread other than the test's finds
 * itself outside the loop, as it would in the node, and its writes and tasks wait for the test to run
 * them ({@link TestEventLoop#runUntil}); scheduled work (the handshake timeout) stays with the
 * embedded loop, whose clock the test moves ({@link #advanceTimeBy}). EmbeddedChannel runs its own
 * tasks inside its operations (a write, a close); the work handed to the test's loop runs only when
 * the test runs the loop, after the task that handed it over, never inside it.
 */
final class TestChannel extends EmbeddedChannel {
    private final TestEventLoop loop;
    private final SocketAddress remote;
    private EventLoop view;

    TestChannel(TestEventLoop loop, SocketAddress remote, ChannelHandler... handlers) throws Exception {
        super(EmbeddedChannel.builder().register(false).handlers(handlers));
        this.loop = loop;
        this.remote = remote;
        loop.add(this);
        register();
    }

    @Override
    public EventLoop eventLoop() {
        if (view == null) {
            view = new LoopView(super.eventLoop()); // registered by now: every caller is past register()
        }
        return view;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return remote;
    }

    /** What Netty gave the embedded loop itself, and the scheduled work that is due. */
    void runOwnTasks() {
        runPendingTasks();
    }

    // Writes go straight into the pipeline, whose context hands them to the loop when they come from
    // another thread. EmbeddedChannel's own write methods would count them in a field no other thread
    // may touch and run its tasks on the writing thread.

    @Override
    public ChannelFuture write(Object msg) {
        return pipeline().write(msg);
    }

    @Override
    public ChannelFuture write(Object msg, ChannelPromise promise) {
        return pipeline().write(msg, promise);
    }

    @Override
    public ChannelFuture writeAndFlush(Object msg) {
        return pipeline().writeAndFlush(msg);
    }

    @Override
    public ChannelFuture writeAndFlush(Object msg, ChannelPromise promise) {
        return pipeline().writeAndFlush(msg, promise);
    }

    @Override
    public Channel flush() {
        pipeline().flush();
        return this;
    }

    /** The channel's event loop as its handlers and other threads see it: the test's thread. */
    private final class LoopView extends AbstractEventExecutor implements EventLoop {
        private final EventLoop embedded;

        LoopView(EventLoop embedded) {
            this.embedded = embedded;
        }

        @Override
        public EventLoopGroup parent() {
            return embedded.parent();
        }

        @Override
        public EventLoop next() {
            return this;
        }

        /** The embedded loop's clock, which schedules the work and which the test moves. */
        @Override
        public Ticker ticker() {
            return embedded.ticker();
        }

        @Override
        public boolean inEventLoop(Thread thread) {
            return loop.runs(thread);
        }

        @Override
        public void execute(Runnable task) {
            loop.execute(task);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            return embedded.schedule(command, delay, unit);
        }

        @Override
        public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
            return embedded.schedule(callable, delay, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
            return embedded.scheduleAtFixedRate(command, initialDelay, period, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(
                Runnable command, long initialDelay, long delay, TimeUnit unit) {
            return embedded.scheduleWithFixedDelay(command, initialDelay, delay, unit);
        }

        @Override
        public ChannelFuture register(Channel channel) {
            return embedded.register(channel);
        }

        @Override
        public ChannelFuture register(ChannelPromise promise) {
            return embedded.register(promise);
        }

        @Deprecated
        @Override
        public ChannelFuture register(Channel channel, ChannelPromise promise) {
            return embedded.register(channel, promise);
        }

        @Override
        public boolean isShuttingDown() {
            return embedded.isShuttingDown();
        }

        @Override
        public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
            return embedded.shutdownGracefully(quietPeriod, timeout, unit);
        }

        @Override
        public Future<?> terminationFuture() {
            return embedded.terminationFuture();
        }

        @Deprecated
        @Override
        public void shutdown() {
            embedded.shutdown();
        }

        @Override
        public boolean isShutdown() {
            return embedded.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return embedded.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return embedded.awaitTermination(timeout, unit);
        }
    }
}

package org.partita.broker.network;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import org.partita.broker.config.TlsSettings;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;

/**
 * The first handler of a connection to a node with TLS: a client that starts a TLS handshake gets
 * TLS; one that speaks plain frames is let through only if the plaintext policy allows its address
 * (by default, loopback only) and is otherwise told why and closed.
 */
final class PlaintextGate extends OptionalSslHandler {
    private final TlsSettings.Plaintext policy;

    PlaintextGate(SslContext context, TlsSettings.Plaintext policy) {
        super(context);
        this.policy = policy;
    }

    @Override
    protected ChannelHandler newNonSslHandler(ChannelHandlerContext ctx) {
        boolean loopback = ctx.channel().remoteAddress() instanceof InetSocketAddress a
                && a.getAddress() != null
                && a.getAddress().isLoopbackAddress();
        if (policy == TlsSettings.Plaintext.ON || policy == TlsSettings.Plaintext.LOOPBACK && loopback) {
            return null; // this handler goes, the plain frames go on to the decoder
        }
        return new Refusal(
                policy == TlsSettings.Plaintext.OFF
                        ? "this node takes TLS connections only; connect with ssl://"
                        : "this node takes plaintext connections from its own machine only; connect with ssl://");
    }

    /** Answers the plaintext client's first bytes with an error frame it can read, then closes. */
    private static final class Refusal extends ChannelInboundHandlerAdapter {
        private final String message;
        private boolean told;

        Refusal(String message) {
            this.message = message;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            if (!told) {
                told = true;
                ctx.channel()
                        .writeAndFlush(new Frame.Error(0, ErrorCode.AUTHENTICATION_FAILED, message))
                        .addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}

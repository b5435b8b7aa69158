package org.partita.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * On x86-64 Linux the node waits for its sockets with epoll: the native library it needs is on the
 * class path (a dependency of jms-provider) and loads. Without it the node would still run, on NIO,
 * with longer round trips: this test is what notices.
 */
class ServerIoTest {
    @Test
    @EnabledOnOs(OS.LINUX)
    @EnabledIfSystemProperty(named = "os.arch", matches = "amd64|x86_64")
    void epollOnLinux() {
        assertEquals(
                "epoll",
                ServerIo.best().name(),
                "Netty's native epoll did not load: " + io.netty.channel.epoll.Epoll.unavailabilityCause());
    }
}

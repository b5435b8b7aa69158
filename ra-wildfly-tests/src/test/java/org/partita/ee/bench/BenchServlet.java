package org.partita.ee.bench;

import jakarta.annotation.Resource;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code /bench/tally?name=..}: a bean's count and time; {@code /bench/load?queue=benchXa&count=N}:
 * puts N persistent keyed messages on one of WildFly's own (Artemis) queues, the same load the test
 * puts on Partita's.
 */
@WebServlet("/bench/*")
public class BenchServlet extends HttpServlet {

    @Resource(lookup = "java:/ConnectionFactory")
    private ConnectionFactory artemis;

    @Resource(lookup = "java:/jms/queue/benchXa")
    private Queue benchXa;

    @Resource(lookup = "java:/jms/queue/benchPlain")
    private Queue benchPlain;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        if ("/tally".equals(request.getPathInfo())) {
            response.getWriter().print(Tally.of(request.getParameter("name")).report());
            return;
        }
        int count = Integer.parseInt(request.getParameter("count"));
        Queue queue = "benchXa".equals(request.getParameter("queue")) ? benchXa : benchPlain;
        try (Connection c = artemis.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(queue);
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < count; i++) {
                TextMessage m = s.createTextMessage("event " + i);
                m.setStringProperty("JMSXGroupID", "m-" + (i % 64));
                p.send(m);
            }
            response.getWriter().print("loaded=" + count);
        } catch (JMSException e) {
            response.sendError(500, e.toString());
        }
    }
}

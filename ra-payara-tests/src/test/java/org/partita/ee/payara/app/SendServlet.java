package org.partita.ee.payara.app;

import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;

/**
 * What the test drives over HTTP. {@code /app/send?text=..&fail=..}: in one JTA transaction, a send
 * to {@code ee.tx} through the pooled factory and one through an injected {@code JMSContext}; then
 * commit, or roll back when {@code fail}. {@code /app/lookup?text=..}: a send to the administered
 * queue {@code jms/queue/ee.lookup}.
 */
@WebServlet("/app/*")
public class SendServlet extends HttpServlet {

    @Resource(lookup = PayaraNames.CONNECTION_FACTORY)
    private ConnectionFactory factory;

    @Inject
    @JMSConnectionFactory(PayaraNames.CONNECTION_FACTORY)
    private JMSContext context;

    @Resource(lookup = PayaraNames.LOOKUP_QUEUE)
    private Queue lookupQueue;

    @Resource
    private UserTransaction transaction;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        String text = request.getParameter("text");
        try {
            switch (request.getPathInfo()) {
                case "/send" -> {
                    transaction.begin();
                    try (Connection c = factory.createConnection()) {
                        Session s = c.createSession();
                        s.createProducer(s.createQueue("ee.tx")).send(s.createTextMessage(text + "/pool"));
                    }
                    context.createProducer().send(context.createQueue("ee.tx"), text + "/context");
                    if (Boolean.parseBoolean(request.getParameter("fail"))) {
                        transaction.rollback();
                        response.getWriter().print("rolled back");
                    } else {
                        transaction.commit();
                        response.getWriter().print("committed");
                    }
                }
                case "/lookup" -> {
                    context.createProducer().send(lookupQueue, text);
                    response.getWriter().print("sent to " + lookupQueue);
                }
                default -> response.sendError(404);
            }
        } catch (Exception e) {
            response.sendError(500, e.toString());
        }
    }
}

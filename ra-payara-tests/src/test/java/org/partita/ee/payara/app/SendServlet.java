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
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * What the test drives over HTTP. {@code /app/send?text=..&fail=..}: in one JTA transaction, a send
 * to {@code ee.tx} through the pooled factory and one through an injected {@code JMSContext}; then
 * commit, or roll back when {@code fail}. {@code /app/lookup?text=..}: a send to the administered
 * queue {@code jms/queue/ee.lookup}. {@code /app/rows}: the texts {@link RecordingBean} recorded, one a
 * line, in order (the table made on first call).
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

    @Resource(lookup = PayaraNames.DATA_SOURCE)
    private DataSource database;

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
                case "/rows" -> {
                    try (java.sql.Connection db = database.getConnection();
                            Statement st = db.createStatement()) {
                        st.execute("CREATE TABLE IF NOT EXISTS HANDLED(TEXT VARCHAR(64))");
                        StringBuilder out = new StringBuilder();
                        try (ResultSet rows = st.executeQuery("SELECT TEXT FROM HANDLED ORDER BY TEXT")) {
                            while (rows.next()) {
                                out.append(rows.getString(1)).append('\n');
                            }
                        }
                        response.getWriter().print(out);
                    }
                }
                default -> response.sendError(404);
            }
        } catch (Exception e) {
            response.sendError(500, e.toString());
        }
    }
}

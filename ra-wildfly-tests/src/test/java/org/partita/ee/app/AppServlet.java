package org.partita.ee.app;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** What the test drives over HTTP: {@code /app/send?text=..&fail=..} and {@code /app/rows}. */
@WebServlet("/app/*")
public class AppServlet extends HttpServlet {

    @EJB
    private Sender sender;

    @Resource(lookup = AppNames.DATA_SOURCE)
    private DataSource database;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        switch (request.getPathInfo()) {
            case "/send" -> {
                try {
                    sender.send(request.getParameter("text"), Boolean.parseBoolean(request.getParameter("fail")));
                    response.getWriter().print("sent");
                } catch (RuntimeException e) {
                    response.getWriter().print("rolled back: " + e);
                }
            }
            case "/rows" -> {
                try (Connection c = database.getConnection();
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT TEXT FROM REQUESTS ORDER BY TEXT")) {
                    StringBuilder out = new StringBuilder();
                    while (rs.next()) {
                        out.append(rs.getString(1)).append('\n');
                    }
                    response.getWriter().print(out);
                } catch (SQLException e) {
                    response.sendError(500, e.toString());
                }
            }
            default -> response.sendError(404);
        }
    }
}

package org.partita.ee.context;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** GET /send?text=...&default=true|false&fail=true|false: sends through {@link ContextSender}. */
@WebServlet("/send")
public class ContextServlet extends HttpServlet {
    @EJB
    private ContextSender sender;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String text = request.getParameter("text");
        sender.send(
                text,
                Boolean.parseBoolean(request.getParameter("default")),
                Boolean.parseBoolean(request.getParameter("fail")));
        response.getWriter().print("sent " + text);
    }
}

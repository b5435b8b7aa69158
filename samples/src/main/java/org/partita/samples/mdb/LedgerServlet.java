package org.partita.samples.mdb;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code GET /ledger}: the ledger's figures, as {@link MachineEventSender} reads them. */
@WebServlet("/ledger")
public class LedgerServlet extends HttpServlet {

    @EJB
    private MachineLedger ledger;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print(ledger.report());
    }
}

package org.partita.broker.store.h2;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Creates the node's tables on first start and checks the schema version on later ones. A payload
 * is stored once in MESSAGES; ENTRIES holds per-queue (per-subscription) delivery state apart from it.
 */
public final class H2Schema {
    /**
     * 1: queues, payloads, entries. 2: message heads beside the payloads. 3: XA transaction
     * branches. Older folders are upgraded in place.
     */
    public static final int VERSION = 3;

    private H2Schema() {}

    static void createOrCheck(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS PARTITA_SCHEMA(VERSION INT NOT NULL)");
            try (ResultSet rs = s.executeQuery("SELECT VERSION FROM PARTITA_SCHEMA")) {
                if (rs.next()) {
                    int found = rs.getInt(1);
                    if (found > 0 && found < VERSION) {
                        upgrade(s, found);
                        c.commit();
                        return;
                    }
                    if (found != VERSION) {
                        throw new SQLException("the data folder holds schema version " + found
                                + " but this node understands version " + VERSION);
                    }
                    return;
                }
            }
            // IF NOT EXISTS everywhere, version row last: a crash half-way through a first start
            // leaves a folder the next start completes.
            s.execute(
                    "CREATE TABLE IF NOT EXISTS QUEUES(NAME VARCHAR(1024) PRIMARY KEY, KIND VARCHAR(32) NOT NULL, OPTIONS VARCHAR(8192))");
            s.execute("CREATE TABLE IF NOT EXISTS MESSAGES(ID BIGINT PRIMARY KEY, PAYLOAD VARBINARY NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS ENTRIES(QUEUE VARCHAR(1024) NOT NULL, MESSAGE_ID BIGINT NOT NULL,"
                    + " DELIVERY_COUNT INT NOT NULL, PRIMARY KEY(QUEUE, MESSAGE_ID))");
            s.execute("CREATE INDEX IF NOT EXISTS ENTRIES_BY_MESSAGE ON ENTRIES(MESSAGE_ID)");
            createHeads(s);
            createBranches(s);
            s.execute("INSERT INTO PARTITA_SCHEMA(VERSION) VALUES(" + VERSION + ")");
        }
        c.commit();
    }

    /**
     * Brings an older folder to {@link #VERSION}, one step at a time. Payloads stored before heads
     * existed keep none: a start reads those payloads instead.
     */
    private static void upgrade(Statement s, int from) throws SQLException {
        if (from < 2) {
            createHeads(s);
        }
        if (from < 3) {
            createBranches(s);
        }
        s.executeUpdate("UPDATE PARTITA_SCHEMA SET VERSION = " + VERSION);
    }

    /** Apart from MESSAGES, so that reading heads never reads the pages that hold payloads. */
    private static void createHeads(Statement s) throws SQLException {
        s.execute("CREATE TABLE IF NOT EXISTS MESSAGE_HEADS(ID BIGINT PRIMARY KEY, HEAD VARBINARY NOT NULL)");
    }

    /** Prepared XA branches: what each will commit, held apart from the queues until it does. */
    private static void createBranches(Statement s) throws SQLException {
        s.execute("CREATE TABLE IF NOT EXISTS XA_BRANCHES(XID VARBINARY(256) PRIMARY KEY, STATE INT NOT NULL,"
                + " DATA VARBINARY NOT NULL)");
    }
}

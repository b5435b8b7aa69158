package org.partita.ee.app;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** Creates the application's table when it starts. */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Schema {

    @Resource(lookup = AppNames.DATA_SOURCE)
    private DataSource database;

    @PostConstruct
    void create() {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS REQUESTS(TEXT VARCHAR(200) PRIMARY KEY)");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}

package org.partita.ee;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;

/** What the WildFly tests deploy besides their applications. */
public final class Deployments {
    /** WildFly's descriptor binding a deployment's message-driven beans to the Partita adapter. */
    public static final String RA_BINDING = """
            <jboss xmlns="http://www.jboss.com/xml/ns/javaee" xmlns:jee="http://java.sun.com/xml/ns/javaee"
                   xmlns:mdb="urn:resource-adapter-binding">
              <jee:assembly-descriptor>
                <mdb:resource-adapter-binding>
                  <jee:ejb-name>*</jee:ejb-name>
                  <mdb:resource-adapter-name>partita-ra.rar</mdb:resource-adapter-name>
                </mdb:resource-adapter-binding>
              </jee:assembly-descriptor>
            </jboss>
            """;

    private Deployments() {}

    /**
     * The adapter as the build made it, plus WildFly's {@code ironjacamar.xml} binding a pooled XA
     * connection factory at {@code java:/jms/partita/CF} and three administered destinations
     * (README, "Jakarta EE servers").
     */
    public static ResourceAdapterArchive adapter() {
        ResourceAdapterArchive rar = ShrinkWrap.create(ResourceAdapterArchive.class, "partita-ra.rar");
        rar.merge(ShrinkWrap.createFromZipFile(
                ResourceAdapterArchive.class, new File(System.getProperty("partita.rar"))));
        rar.addAsManifestResource(new StringAsset("""
                <ironjacamar xmlns="http://www.ironjacamar.org/doc/schema">
                  <transaction-support>XATransaction</transaction-support>
                  <connection-definitions>
                    <connection-definition class-name="org.partita.ra.PartitaManagedConnectionFactory"
                                           jndi-name="java:/jms/partita/CF" pool-name="PartitaCF">
                      <xa-pool>
                        <min-pool-size>0</min-pool-size>
                        <max-pool-size>30</max-pool-size>
                      </xa-pool>
                      <recovery no-recovery="false">
                        <recover-credential>
                          <user-name>recovery</user-name>
                          <password>recovery</password>
                        </recover-credential>
                      </recovery>
                    </connection-definition>
                  </connection-definitions>
                  <admin-objects>
                    <admin-object class-name="org.partita.ra.admin.PartitaAdminQueue"
                                  jndi-name="java:/jms/queue/ee.context" pool-name="ee.context">
                      <config-property name="Name">ee.context</config-property>
                    </admin-object>
                    <admin-object class-name="org.partita.ra.admin.PartitaAdminQueue"
                                  jndi-name="java:/jms/queue/ee.lookup" pool-name="ee.lookup">
                      <config-property name="Name">ee.lookup?partitions=2</config-property>
                    </admin-object>
                    <admin-object class-name="org.partita.ra.admin.PartitaAdminTopic"
                                  jndi-name="java:/jms/topic/ee.news" pool-name="ee.news">
                      <config-property name="Name">ee/news</config-property>
                    </admin-object>
                  </admin-objects>
                </ironjacamar>
                """), "ironjacamar.xml");
        return rar;
    }
}

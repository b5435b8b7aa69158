package org.partita.ee;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;

/** What the WildFly tests deploy besides their applications. */
public final class Deployments {
    /**
     * WildFly's descriptor binding a deployment's message-driven beans to the Partita adapter: the
     * README's (WildFly step 3).
     */
    public static final String RA_BINDING =
            ReadmeSnippets.xmlAfter("Bind the application's message-driven beans to the adapter");

    /** The administered destinations the test applications use, in place of the README's examples. */
    private static final String TEST_ADMIN_OBJECTS = """
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
              </admin-objects>""";

    private Deployments() {}

    /**
     * The adapter as the build made it, plus the README's {@code ironjacamar.xml} (WildFly step 2:
     * a pooled XA connection factory at {@code java:/jms/partita/CF} registered for recovery), with
     * the tests' administered destinations in place of the README's examples.
     */
    public static ResourceAdapterArchive adapter() {
        String readme = ReadmeSnippets.xmlAfter("Add `META-INF/ironjacamar.xml`");
        String ironjacamar = readme.replaceFirst("(?s)<admin-objects>.*</admin-objects>", TEST_ADMIN_OBJECTS);
        if (ironjacamar.equals(readme)) {
            throw new IllegalStateException("the README's ironjacamar.xml has no <admin-objects>:\n" + readme);
        }
        ResourceAdapterArchive rar = ShrinkWrap.create(ResourceAdapterArchive.class, "partita-ra.rar");
        rar.merge(ShrinkWrap.createFromZipFile(
                ResourceAdapterArchive.class, new File(System.getProperty("partita.rar"))));
        rar.addAsManifestResource(new StringAsset(ironjacamar), "ironjacamar.xml");
        return rar;
    }
}

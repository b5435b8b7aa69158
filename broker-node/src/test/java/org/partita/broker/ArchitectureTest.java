package org.partita.broker;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameStartingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering the design brief asks the build to check ("Structure that stays easy to change"):
 * dispatch knows no Netty or H2, storage knows no dispatch, the network front does not reach into
 * the H2 store, the core never reaches into the cluster, and the node uses the client library only
 * where node links reuse its transport. That the protocol module knows neither client nor node, and
 * that the CLI and the resource adapter never use the node, the module dependencies enforce: their
 * main code cannot see those classes.
 *
 * <p>Only production classes are imported; a failing rule names each offending dependency with
 * its class and line.
 */
class ArchitectureTest {
    private static final String CORE = "org.partita.broker.core..";
    private static final String STORE = "org.partita.broker.store..";
    private static final String NETWORK = "org.partita.broker.network..";
    private static final String PROTOCOL = "org.partita.protocol..";

    private static JavaClasses broker;
    private static JavaClasses protocol;

    @BeforeAll
    static void importClasses() {
        ClassFileImporter importer =
                new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS);
        broker = importer.importPackages("org.partita.broker");
        protocol = importer.importPackages("org.partita.protocol");
    }

    @Test
    void classesAreImported() {
        // Guards against rules passing vacuously because nothing was found on the class path.
        assertFalse(broker.that(resideInAPackage(CORE)).isEmpty(), "no core classes imported");
        assertFalse(broker.that(resideInAPackage(STORE)).isEmpty(), "no store classes imported");
        assertFalse(broker.that(resideInAPackage(NETWORK)).isEmpty(), "no network classes imported");
        assertFalse(protocol.that(resideInAPackage(PROTOCOL)).isEmpty(), "no protocol classes imported");
    }

    @Test
    void coreKnowsNoNettyNorH2NorJdbc() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(CORE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.netty..", "org.h2..", "java.sql..")
                .because("dispatch logic is tested without a network or a database and must not block on either");
        rule.check(broker);
    }

    @Test
    void coreDoesNotDependOnTheNetworkFront() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(CORE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(NETWORK, "org.partita.broker.embed..", "org.partita.broker.main..")
                .because("the network layer calls the core, never the other way round");
        rule.check(broker);
    }

    @Test
    void storeKnowsNoDispatchNorNetwork() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(STORE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(CORE, NETWORK)
                .because("storage knows no dispatch: it stores payloads and entries, nothing more");
        rule.check(broker);
    }

    @Test
    void networkUsesTheStoreOnlyThroughItsInterface() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(NETWORK)
                .should()
                .dependOnClassesThat(resideInAPackage(STORE).and(simpleNameStartingWith("H2")))
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage("org.h2..", "java.sql..")
                .because("network threads never touch H2; the H2 store is an implementation detail of store");
        rule.check(broker);
    }

    @Test
    void dispatchPartitionsAndTopicsKnowNoStore() {
        ArchRule rule = noClasses()
                .that()
                .resideInAnyPackage(
                        "org.partita.broker.core.dispatch..",
                        "org.partita.broker.core.partition..",
                        "org.partita.broker.core.topic..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(STORE)
                .because("who gets a message is decided without storage: the queue stores, the engines dispatch");
        rule.check(broker);
    }

    @Test
    void onlyTheAssemblyKnowsTheStoresImplementation() {
        ArchRule rule = noClasses()
                .that()
                .resideOutsideOfPackages(STORE, "org.partita.broker.embed..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.partita.broker.store.h2..",
                        "org.partita.broker.store.journal..",
                        "org.partita.broker.store.commit..")
                .because("the rest of the node uses the store through MessageStore and its records; PartitaNode picks"
                        + " the implementation");
        rule.check(broker);
    }

    @Test
    void coreDoesNotReachIntoTheCluster() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(CORE)
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.partita.broker.cluster..")
                .because("the cluster builds on the core (through ClusterHooks), not the other way round");
        rule.check(broker);
    }

    @Test
    void onlyNodeLinksUseTheClientLibraryAndOnlyItsTransport() {
        ArchRule outsideLinks = noClasses()
                .that()
                .resideInAPackage("org.partita.broker..")
                .and()
                .resideOutsideOfPackage("org.partita.broker.cluster..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.partita.jms..")
                .because("the node speaks the protocol module; it never uses the client library");
        outsideLinks.check(broker);
        ArchRule links = noClasses()
                .that()
                .resideInAPackage("org.partita.broker.cluster..")
                .should()
                .dependOnClassesThat(
                        resideInAPackage("org.partita.jms..").and(not(resideInAPackage("org.partita.jms.transport.."))))
                .because("a node links to another as a client of its protocol does, through the same transport,"
                        + " but never through the JMS facade");
        links.check(broker);
    }
}

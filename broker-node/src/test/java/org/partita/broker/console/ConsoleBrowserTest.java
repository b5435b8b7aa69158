package org.partita.broker.console;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The console in a real browser: headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}) driven by Selenium. The screenshot is left in
 * {@code target/console-screenshot.png}.
 */
@Tag("browser")
@Timeout(120)
class ConsoleBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    Path dir;

    @Test
    void theConsoleShowsQueuesPartitionsWithTheirOwnersAndTheConsumers() throws Exception {
        assumeTrue(
                Files.isExecutable(CHROMIUM),
                "headless Chromium is not installed: apt-get install -y chromium chromium-driver (.ci/run installs them)");
        assertTrue(
                Files.isExecutable(CHROMEDRIVER),
                "Chromium is installed but its driver is not: apt-get install -y chromium-driver");
        try (PartitaNode node = PartitaNode.start(NodeConfig.defaults()
                        .withPort(0)
                        .withDataDir(dir.resolve("data"))
                        .withNodeName("console-node")
                        .withMetricsPort(0));
                Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            c.setClientID("console-watcher");
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            deadLetterOneMessage(c);
            s.createDurableSubscriber(s.createTopic("alerts/>"), "pager");
            // one consumer that holds one message per partition unacknowledged: owners are set, messages wait
            s.createConsumer(s.createQueue("orders?partitions=4&capacity=1"));
            c.start();
            MessageProducer p = s.createProducer(s.createQueue("orders"));
            for (int i = 0; i < 40; i++) {
                Message m = s.createTextMessage("order " + i);
                m.setStringProperty("JMSXGroupID", "customer-" + i);
                p.send(m);
            }
            ChromeDriver browser = chromium();
            try {
                browser.get("http://127.0.0.1:" + node.metricsPort() + "/");
                await("the console to show the queue")
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> !browser.findElements(By.cssSelector("#queues tr[data-queue='orders']"))
                                .isEmpty());
                assertEquals(
                        "console-node", browser.findElement(By.id("node-name")).getText());
                await("four partitions with their owner")
                        .atMost(Duration.ofSeconds(20))
                        .untilAsserted(() -> {
                            List<WebElement> tiles = browser.findElements(By.cssSelector("#partitions .partition"));
                            assertEquals(4, tiles.size());
                            for (WebElement tile : tiles) {
                                assertTrue(
                                        tile.findElement(By.className("owner"))
                                                .getText()
                                                .startsWith("owner: consumer"),
                                        tile.getText());
                            }
                        });
                WebElement orders = browser.findElement(By.cssSelector("#queues tr[data-queue='orders']"));
                List<WebElement> cells = orders.findElements(By.tagName("td"));
                assertEquals("4", cells.get(2).getText(), "partitions");
                assertEquals(
                        40,
                        Integer.parseInt(cells.get(3).getText())
                                + Integer.parseInt(cells.get(4).getText()),
                        "waiting plus in flight: " + orders.getText());
                assertEquals("1", cells.get(5).getText(), "consumers");
                String consumers = browser.findElement(By.id("consumers")).getText();
                assertTrue(consumers.contains("orders") && consumers.contains("0, 1, 2, 3"), consumers);
                String subscriptions =
                        browser.findElement(By.id("subscriptions")).getText();
                assertTrue(
                        subscriptions.contains("durable:console-watcher:pager")
                                && subscriptions.contains("durable")
                                && subscriptions.contains("alerts/>"),
                        subscriptions);
                await("the dead letter in the DLQ section")
                        .atMost(Duration.ofSeconds(20))
                        .untilAsserted(() -> {
                            // read in one script: the page redraws every 2 seconds, which makes found elements stale
                            List<?> dlq = (List<?>)
                                    browser.executeScript(
                                            "return Array.from("
                                                    + "document.querySelectorAll(\"#dlq tr[data-dlq='DLQ'] td\")).map(td => td.textContent)");
                            assertEquals(3, dlq.size(), String.valueOf(dlq));
                            assertEquals("1", dlq.get(1), "messages: " + dlq);
                        });
                await("the node's figures").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                    java.util.Map<String, String> figures = new java.util.HashMap<>();
                    for (Object card : (List<?>)
                            browser.executeScript(
                                    "return Array.from(document.querySelectorAll("
                                            + "'#node-figures .card')).map(c => [c.querySelector('.label').textContent, c.querySelector('.value').textContent])")) {
                        List<?> pair = (List<?>) card;
                        figures.put(String.valueOf(pair.get(0)), String.valueOf(pair.get(1)));
                    }
                    assertEquals(node.url(), figures.get("address"), figures.toString());
                    assertEquals("1", figures.get("connections"), figures.toString());
                    assertEquals(
                            "2",
                            figures.get("consumers"),
                            "the orders consumer and the durable subscriber: " + figures);
                    assertEquals("off", figures.get("authentication"), figures.toString());
                    assertTrue(figures.get("heap").matches("\\S+ \\S+ of \\S+ \\S+"), figures.toString());
                });
                File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
                Path target = Path.of("target", "console-screenshot.png");
                Files.createDirectories(target.getParent());
                Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
                assertTrue(Files.size(target) > 10_000, "a real picture of the page");
            } finally {
                browser.quit();
            }
        }
    }

    /** A message delivered once on a queue that allows one delivery, then recovered: it goes to the DLQ. */
    private static void deadLetterOneMessage(Connection c) throws Exception {
        Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        s.createProducer(s.createQueue("jobs?maxDeliveryAttempts=1")).send(s.createTextMessage("poison"));
        c.start();
        jakarta.jms.MessageConsumer consumer = s.createConsumer(s.createQueue("jobs"));
        assertTrue(consumer.receive(5000) != null);
        s.recover();
        consumer.close();
        s.close();
    }

    private ChromeDriver chromium() throws Exception {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--no-first-run",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1400,1800",
                "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium-profile")));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }
}

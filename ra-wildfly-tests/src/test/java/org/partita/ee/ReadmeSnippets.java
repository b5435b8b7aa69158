package org.partita.ee;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Configuration blocks taken from the project's README, so that the tests apply what it tells a
 * user to write, as written: a README that drifts from what works fails the tests.
 */
final class ReadmeSnippets {
    private ReadmeSnippets() {}

    /** The first {@code ```xml} block after the line that contains {@code marker}, its list indent removed. */
    static String xmlAfter(String marker) {
        List<String> lines = readme();
        int at = indexOf(lines, marker, 0);
        int open = indexOf(lines, "```xml", at);
        int close = indexOf(lines, "```", open + 1);
        String indent = lines.get(open).substring(0, lines.get(open).indexOf("```"));
        StringBuilder xml = new StringBuilder();
        for (String line : lines.subList(open + 1, close)) {
            xml.append(line.startsWith(indent) ? line.substring(indent.length()) : line.strip())
                    .append('\n');
        }
        return xml.toString();
    }

    private static int indexOf(List<String> lines, String text, int from) {
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        throw new IllegalStateException("README.md has no '" + text + "' after line " + (from + 1));
    }

    private static List<String> readme() {
        // the tests run in the module's folder; the README is the project's
        Path readme = Path.of("..", "README.md");
        try {
            return Files.readAllLines(readme);
        } catch (IOException e) {
            throw new UncheckedIOException("the project's README, " + readme.toAbsolutePath(), e);
        }
    }
}

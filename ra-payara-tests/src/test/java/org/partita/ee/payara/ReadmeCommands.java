package org.partita.ee.payara;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code asadmin} commands of the README's Payara steps, as a user would type them (each an
 * inline code span starting with {@code asadmin }), split into arguments the way a shell splits
 * them: the tests run what the README says, so a README that drifts from what works fails them.
 */
final class ReadmeCommands {
    private static final Pattern CODE = Pattern.compile("`(asadmin [^`]+)`");

    private ReadmeCommands() {}

    /** Each command's arguments after {@code asadmin}, in the README's order. */
    static List<List<String>> payara() {
        String readme;
        try {
            readme = Files.readString(Path.of("..", "README.md")); // the tests run in the module's folder
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int from = readme.indexOf("### Payara Server");
        // the numbered steps: what follows them describes the tests' own set-up
        int to = readme.indexOf("Applications look the factory up", from + 1);
        if (from < 0 || to < 0) {
            throw new IllegalStateException("README.md has no Payara Server section with its steps");
        }
        List<List<String>> commands = new ArrayList<>();
        Matcher m = CODE.matcher(readme.substring(from, to));
        while (m.find()) {
            List<String> args = words(m.group(1));
            commands.add(args.subList(1, args.size()));
        }
        return commands;
    }

    /** Splits on spaces outside single quotes and drops the quotes, as a POSIX shell does for these. */
    static List<String> words(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean inWord = false;
        for (char c : command.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
                inWord = true;
            } else if (c == ' ' && !quoted) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}

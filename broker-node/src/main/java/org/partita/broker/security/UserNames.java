package org.partita.broker.security;

/**
 * What a user name in a users file may be: the file reads {@code name = hash} lines, so a name
 * cannot contain {@code =}, start with {@code #} (a comment), have surrounding blanks (stripped)
 * or span lines.
 */
public final class UserNames {
    private UserNames() {}

    /** Why {@code name} cannot be a user of a users file, or null if it can. */
    public static String refusal(String name) {
        if (name == null || name.isEmpty()) {
            return "the user name is empty";
        }
        if (name.indexOf('=') >= 0) {
            return "user name '" + name + "' contains '=', which separates the name from the hash in a users file";
        }
        if (name.startsWith("#")) {
            return "user name '" + name + "' starts with '#', which starts a comment in a users file";
        }
        if (!name.equals(name.strip())) {
            return "user name '" + name + "' starts or ends with blanks, which a users file does not keep";
        }
        if (name.indexOf('\n') >= 0 || name.indexOf('\r') >= 0) {
            return "user name must be on one line";
        }
        return null;
    }
}

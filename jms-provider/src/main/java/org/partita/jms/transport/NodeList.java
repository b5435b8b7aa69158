package org.partita.jms.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.partita.protocol.ErrorCode;

/** The nodes a failover connection may use, in the URL's order. */
record NodeList(List<NodeAddress> nodes) {

    NodeList {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a failover connection needs at least one node");
        }
        nodes = List.copyOf(nodes);
    }

    /** The nodes to try after losing {@code lost}: those after it in the list, then those before, {@code lost} last. */
    List<NodeAddress> after(NodeAddress lost) {
        int i = Math.max(0, nodes.indexOf(lost));
        List<NodeAddress> order = new ArrayList<>(nodes.subList(i + 1, nodes.size()));
        order.addAll(nodes.subList(0, i + 1));
        return order;
    }

    /** One failure naming every node; its code is a node's refusal (credentials, client id) if any said one. */
    BrokerError noneAccepted(Map<NodeAddress, BrokerError> refusals) {
        StringBuilder text = new StringBuilder("no node of ").append(this).append(" accepted the connection:");
        ErrorCode code = ErrorCode.INTERNAL;
        String errorCode =
                null; // the client's own code of the first failure, when no node refused with a code of its own
        for (Map.Entry<NodeAddress, BrokerError> e : refusals.entrySet()) {
            if (errorCode == null) {
                errorCode = e.getValue().errorCode();
            }
            text.append(' ')
                    .append(e.getKey())
                    .append(": ")
                    .append(e.getValue().getMessage())
                    .append(';');
            if (code == ErrorCode.INTERNAL) {
                code = e.getValue().code();
            }
        }
        text.setLength(text.length() - 1);
        return code == ErrorCode.INTERNAL && errorCode != null
                ? new BrokerError(code, errorCode, text.toString())
                : new BrokerError(code, text.toString());
    }

    /** The URL's node list: {@code tcp://a:61700,ssl://b:61700}. */
    @Override
    public String toString() {
        StringBuilder url = new StringBuilder();
        for (NodeAddress n : nodes) {
            url.append(url.length() == 0 ? "" : ",")
                    .append(n.scheme())
                    .append("://")
                    .append(n);
        }
        return url.toString();
    }
}

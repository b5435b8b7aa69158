package org.partita.broker.config;

/** What clients may make a node hold in memory and how many resources they may open. */
public record FlowLimits() {

    public static FlowLimits defaults() {
        return new FlowLimits();
    }
}

package org.partita.samples.spring;

import org.springframework.jms.core.JmsTemplate;

/** Publishes the events of an order's life, keyed by order id so that each order's events stay in order. */
public class OrderDesk {
    static final String[] EVENTS = {"created", "paid", "picked", "packed", "shipped"};

    private final JmsTemplate jmsTemplate;

    public OrderDesk(JmsTemplate jmsTemplate) {
        this.jmsTemplate = jmsTemplate;
    }

    /** Sends event number {@code seq} (1 = created) of {@code orderId}. */
    public void publish(String orderId, int seq) {
        jmsTemplate.convertAndSend(EVENTS[seq - 1], message -> {
            message.setStringProperty("JMSXGroupID", orderId);
            message.setIntProperty("seq", seq);
            return message;
        });
    }
}

package org.partita.samples.spring;

import jakarta.jms.ConnectionFactory;
import org.partita.jms.client.PartitaConnectionFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.listener.DefaultMessageListenerContainer;

/**
 * A plain Spring configuration (no Boot): Partita's connection factory, a {@link JmsTemplate}
 * that sends order events, and a {@link DefaultMessageListenerContainer} with four listener
 * threads on the partitioned queue {@code order-events}.
 */
@Configuration
public class OrderMessagingConfig {
    /** Four partitions, one per listener thread once the node has spread them; created so by whoever names it first. */
    static final String ORDER_EVENTS = "order-events?partitions=4";

    static final int LISTENER_THREADS = 4;

    /** Primary: the listener container takes it; only the JmsTemplate goes through the caching one. */
    @Bean
    @Primary
    public ConnectionFactory partitaConnectionFactory(@Value("${partita.url}") String url) {
        return new PartitaConnectionFactory(url);
    }

    /** Sends reuse one connection and session instead of opening a connection per send. */
    @Bean
    public CachingConnectionFactory sendingConnectionFactory(ConnectionFactory partitaConnectionFactory) {
        return new CachingConnectionFactory(partitaConnectionFactory);
    }

    @Bean
    public JmsTemplate jmsTemplate(CachingConnectionFactory sendingConnectionFactory) {
        JmsTemplate template = new JmsTemplate(sendingConnectionFactory);
        template.setDefaultDestinationName(ORDER_EVENTS);
        return template;
    }

    @Bean
    public OrderDesk orderDesk(JmsTemplate jmsTemplate) {
        return new OrderDesk(jmsTemplate);
    }

    @Bean
    public OrderEventHandler orderEventHandler() {
        return new OrderEventHandler();
    }

    @Bean
    public DefaultMessageListenerContainer orderEventsContainer(
            ConnectionFactory partitaConnectionFactory, OrderEventHandler orderEventHandler) {
        DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
        container.setConnectionFactory(partitaConnectionFactory);
        container.setDestinationName(ORDER_EVENTS);
        container.setMessageListener(orderEventHandler);
        // four consumers from the start (setConcurrency("4") would mean "up to 4", starting with 1)
        container.setConcurrentConsumers(LISTENER_THREADS);
        // The container receives, then calls the listener. With AUTO_ACKNOWLEDGE the message would be
        // acknowledged on receipt, before the listener ran, and a partition could move to another
        // thread while this one still works on the key's previous event. A transacted session
        // commits after the listener returns, so the node moves a partition only once its events
        // are done (and redelivers one whose listener threw).
        container.setSessionTransacted(true);
        return container;
    }
}

package org.partita.ee.payara.app;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * A durable subscriber of the topic {@code ee/news} with a client id, forwarding each publication to
 * {@code ee.news.durable}: its subscription exists from the bean's deployment on, so nothing
 * published after it is lost to it.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = "ee/news"),
            @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
            @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "payara-news"),
            @ActivationConfigProperty(propertyName = "clientId", propertyValue = "payara-app")
        })
public class NewsBean implements MessageListener {

    @Inject
    @JMSConnectionFactory(PayaraNames.CONNECTION_FACTORY)
    private JMSContext context;

    @Override
    public void onMessage(Message message) {
        Relay.text(context, message, "ee.news.durable");
    }
}

package org.partita.ee.context;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** A durable subscription of its own on the administered topic: needs a clientId (Jakarta Messaging 6.1.2). */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = ContextNames.NEWS_TOPIC),
            @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
            @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "news-audit"),
            @ActivationConfigProperty(propertyName = "clientId", propertyValue = "ee-news")
        })
public class DurableNewsBean extends NewsForwarder {
    @Override
    String target() {
        return "ee.news.durable";
    }
}

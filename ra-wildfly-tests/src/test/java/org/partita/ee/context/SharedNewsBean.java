package org.partita.ee.context;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** A shared durable subscription on the administered topic, without a clientId, as Jakarta Messaging allows. */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = ContextNames.NEWS_TOPIC),
            @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
            @ActivationConfigProperty(propertyName = "subscriptionShared", propertyValue = "true"),
            @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "news-shared")
        })
public class SharedNewsBean extends NewsForwarder {
    @Override
    String target() {
        return "ee.news.shared";
    }
}

package org.partita.tck.support;

import jakarta.jms.TextMessage;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Message implementations that belong to no provider (section 3.12: a provider must accept a
 * message whose implementation is not its own). Backed by plain maps through a dynamic proxy.
 */
public final class ForeignMessages {

    private ForeignMessages() {}

    /** A foreign {@link TextMessage} with the given text. */
    public static TextMessage textMessage(String text) {
        Handler h = new Handler();
        h.body = text;
        return (TextMessage)
                Proxy.newProxyInstance(ForeignMessages.class.getClassLoader(), new Class<?>[] {TextMessage.class}, h);
    }

    private static final class Handler implements InvocationHandler {
        final Map<String, Object> headers = new HashMap<>();
        final Map<String, Object> properties = new LinkedHashMap<>();
        Object body;

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            switch (name) {
                case "getText":
                    return body;
                case "setText":
                    body = args[0];
                    return null;
                case "clearBody":
                    body = null;
                    return null;
                case "getBody":
                    return ((Class<?>) args[0]).cast(body);
                case "isBodyAssignableTo":
                    return body == null || ((Class<?>) args[0]).isInstance(body);
                case "acknowledge":
                    return null;
                case "clearProperties":
                    properties.clear();
                    return null;
                case "propertyExists":
                    return properties.containsKey((String) args[0]);
                case "getPropertyNames":
                    return Collections.enumeration(properties.keySet());
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "equals":
                    return proxy == args[0];
                case "toString":
                    return "ForeignTextMessage[" + body + ", " + headers + ", " + properties + "]";
                default:
                    break;
            }
            if (name.startsWith("setJMS")) {
                headers.put(name.substring(3), args[0]);
                return null;
            }
            if (name.startsWith("getJMS")) {
                Object v = headers.get(name.substring(3));
                Class<?> type = method.getReturnType();
                if (v == null && type.isPrimitive()) {
                    return type == boolean.class ? Boolean.FALSE : type == long.class ? (Object) 0L : (Object) 0;
                }
                return v;
            }
            if (name.startsWith("set") && name.endsWith("Property")) {
                properties.put((String) args[0], args[1]);
                return null;
            }
            if (name.startsWith("get") && name.endsWith("Property")) {
                Object v = properties.get((String) args[0]);
                Class<?> type = method.getReturnType();
                if (type == String.class) {
                    return v == null ? null : v.toString();
                }
                if (type == Object.class) {
                    return v;
                }
                if (v == null) {
                    throw new NumberFormatException("no property " + args[0]);
                }
                return v;
            }
            throw new UnsupportedOperationException(name);
        }
    }
}

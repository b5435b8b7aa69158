package org.partita.ra.admin;

import jakarta.jms.InvalidDestinationException;
import jakarta.resource.Referenceable;
import java.io.Serializable;
import java.util.Objects;
import javax.naming.Reference;

/**
 * A Partita queue or topic a server binds in JNDI from the adapter's administered objects
 * ({@code adminobject} in ra.xml): a JavaBean whose {@code name} is a Partita destination name,
 * options included ({@code orders?partitions=8}). Partita sessions accept it by that name, as they
 * accept any queue or topic, whichever copy of the client classes made them.
 */
abstract class AdministeredDestination implements Referenceable, Serializable {
    private static final long serialVersionUID = 1L;

    private String name;
    private Reference reference;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    /** The name, or a clear error if the server bound the object without one. */
    String checkedName() throws InvalidDestinationException {
        if (name == null || name.isBlank()) {
            throw new InvalidDestinationException(
                    "this administered " + getClass().getSimpleName()
                            + " has no Name: set its Name config property to a Partita destination name");
        }
        return name;
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && Objects.equals(name, ((AdministeredDestination) o).name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getClass(), name);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + "]";
    }
}

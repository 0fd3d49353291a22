package dev.guard.queue.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.guard.drain.Durability;
import dev.guard.drain.Durability.Verdict;
import dev.guard.testing.MachineServices;
import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What streams made on the machine's NATS (JetStream) keep across a restart, asked through a
 * {@link NatsQueue} as a worker would: file storage is kept; memory storage, a max age and a full
 * stream that discards its oldest are each a loss. A cluster cannot run in this class: the
 * replicas rule is read from its inputs.
 */
class NatsDurabilityTest {

    private final String name = MachineServices.uniqueName("guardd").replace('-', '_');
    private final String subject = name + ".jobs";
    private Connection connection;
    private JetStreamManagement jsm;

    @BeforeEach
    void connect() throws Exception {
        connection = Nats.connect(MachineServices.natsUrl());
        jsm = connection.jetStreamManagement();
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            if (jsm.getStreamNames().contains(name)) {
                jsm.deleteStream(name);
            }
        } finally {
            connection.close();
        }
    }

    private Durability asked(StreamConfiguration.Builder stream) throws Exception {
        jsm.addStream(stream.name(name).subjects(subject, subject + ".dead").build());
        try (NatsQueue q = NatsQueue.builder(connection, name, subject, "workers").declare(false)
                .pollTimeout(Duration.ofMillis(100)).build()) {
            return q.durability();
        }
    }

    @Test
    void aFileStreamIsKept() throws Exception {
        Durability d = asked(StreamConfiguration.builder().storageType(StorageType.File));
        assertEquals(Verdict.KEPT, d.verdict(), d.render());
        assertEquals("storage file, replicas 1 (a lone server)", d.found());
        assertTrue(d.broker().startsWith("jetstream stream '" + name + "' on NATS 2."), d.broker());
    }

    @Test
    void aMemoryStreamLosesEveryJobOnRestart() throws Exception {
        Durability d = asked(StreamConfiguration.builder().storageType(StorageType.Memory));
        assertEquals(Verdict.LOST_ON_RESTART, d.verdict(), d.render());
        assertTrue(d.loses().startsWith("every job in the stream: a memory stream starts empty"), d.loses());
        assertTrue(d.action().contains("--storage file"), d.action());
    }

    @Test
    void aMaxAgeAndDiscardOldDeleteJobsUnread() throws Exception {
        Durability d = asked(StreamConfiguration.builder().storageType(StorageType.File).maxAge(Duration.ofHours(1))
                .maxMessages(1000).discardPolicy(DiscardPolicy.Old));
        assertEquals(Verdict.LOST_ON_RESTART, d.verdict(), d.render());
        assertTrue(d.found().contains("max age 3600 s") && d.found().contains("max msgs 1000, discard old"), d.found());
        assertTrue(d.action().contains("--discard new"), d.action());
    }

    @Test
    void oneReplicaOnAClusterIsALossAndThreeAreNot() {
        Durability one = NatsDurability.judge("s", "jobs", StorageType.File, 1, "east", Duration.ZERO, -1, -1, -1,
                DiscardPolicy.Old);
        assertEquals(Verdict.LOST_ON_RESTART, one.verdict(), one.render());
        assertTrue(one.action().contains("--replicas 3"), one.action());
        assertEquals(Verdict.KEPT, NatsDurability.judge("s", "jobs", StorageType.File, 3, "east", Duration.ZERO, -1, -1,
                -1, DiscardPolicy.Old).verdict());
    }

    /**
     * A stream that allows per-message TTL (NATS 2.11; the machine's 2.9 has no such setting, so the
     * verdict is read from the setting as jnats reports it).
     */
    @Test
    void perMessageTtlCanExpireAHandedBackJob() {
        Durability d = NatsDurability.judge("s", "jobs", StorageType.File, 1, null, Duration.ZERO, -1, -1, -1,
                DiscardPolicy.Old, true);
        assertEquals(Verdict.LOST_ON_RESTART, d.verdict(), d.render());
        assertTrue(d.found().contains("per-message TTL allowed (allow_msg_ttl)"), d.found());
        assertTrue(d.loses().contains("a job handed back, or waiting behind a backlog, expires unrun"), d.loses());
        assertTrue(d.action().contains("without a Nats-TTL header"), d.action());
        assertEquals(Verdict.KEPT, NatsDurability.judge("s", "jobs", StorageType.File, 1, null, Duration.ZERO, -1, -1, -1,
                DiscardPolicy.Old, false).verdict());
    }
}

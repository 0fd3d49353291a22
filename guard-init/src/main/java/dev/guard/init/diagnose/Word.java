package dev.guard.init.diagnose;

/**
 * The literal words the application-log parsers look for, case-insensitive. {@link Words} finds
 * all of them in one pass over a line, so a parser whose words are absent costs nothing: most
 * lines of a large capture say none of them.
 */
enum Word {
    // guard's own lines
    ATTEMPT(", attempt "), ERROR_SPACE("error "), WARNING_SPACE("warning "), CONFIG("config"), RECEIVED_EQ("received="), GUARD_INIT_WAIT("guard-init wait: "),
    // Redis clients
    CONNECTING_TO("connecting to"), CONNECT_CALL_FAILED("connect call failed"), CONNECTION_TIMED_OUT("connection timed out"),
    CONNECTION_REFUSED_COLON("connection refused: "), UNABLE_TO_CONNECT_TO("unable to connect to"),
    REDIS_LOADING("redis is loading the dataset in memory"), REDIS_LOADING_EXCEPTION("redisloadingexception"),
    BUSY_LOADING("busyloadingerror"), JEDIS_DNS("failed to connect to any host resolved for dns name"),
    JEDIS_POOL("could not get a resource from the pool"), SPRING_REDIS("unable to connect to redis"), NOAUTH("noauth"),
    WRONGPASS("wrongpass"), INVALID_PAIR("invalid username-password pair"), AUTHENTICATION_ERROR("authenticationerror"),
    // Redis Sentinel and Cluster (any client: the server's replies, the clients' own wordings)
    MOVED("moved "), ASK("ask "), READONLY("readonly"), READ_ONLY_REPLICA("read only replica"), CLUSTERDOWN("clusterdown"),
    CLUSTER_IS_DOWN("cluster is down"), CLUSTER_DOWN_ERROR("clusterdownerror"), NO_MASTER_FOUND("no master found"),
    MASTER_NOT_FOUND("masternotfound"), MASTER_AT("master at "), MASTER_RUNNING_AT("master running at "), ALL_SENTINELS_DOWN("all sentinels down"), SENTINEL("sentinel"), CLUSTER("cluster"),
    // broker clients and sockets
    CONNECTION_TO_NODE("connection to node"), BOOTSTRAP_BROKER("bootstrap broker"), UNABLE_TO_BOOTSTRAP("unable to bootstrap"),
    UNABLE_TO_CONNECT_TO_NATS("unable to connect to nats"), NATS_ERROR("natserror"), TCP_ATTEMPT_FAILED("tcp connection attempt failed"),
    SOCKET_FAILED("socket failed to connect"), WORKFLOW_FAILED("connection workflow failed"),
    UNKNOWN_HOST_EXCEPTION("unknownhostexception"), ACCESS_REFUSED("access_refused"),
    PROBABLE_AUTH("probableauthenticationexception"), AUTHORIZATION_VIOLATION("authorization violation"),
    SASL_AUTH("saslauthenticationexception"), NO_SERVERS("no servers available for connection"),
    NO_SERVERS_ERROR("noserverserror"), NO_BROKERS("nobrokersavailable"), BROKER_NOT_AVAILABLE("broker may not be available"),
    NODE_ASSIGNMENT("timed out waiting for a node assignment"), NO_RESOLVABLE("no resolvable bootstrap urls"),
    AMQP_CONNECTION_ERROR("amqpconnectionerror"), INCOMPATIBLE_PROTOCOL("incompatibleprotocolerror"),
    CONNECTION_REFUSED("connection refused"), CONNECTION_REFUSED_ERROR("connectionrefusederror"),
    TEMPORARY_FAILURE("temporary failure in name resolution"), NAME_NOT_KNOWN("name or service not known"),
    NODENAME("nodename nor servname"), NO_ROUTE("no route to host"), NETWORK_UNREACHABLE("network is unreachable"),
    CANNOT_ASSIGN("cannot assign requested address"),
    // any application
    SCHEME_SEPARATOR("://"), FAILED_TO_START("application failed to start"), PERMISSION("permission"), EACCES("eacces"),
    READ_ONLY("read-only"), ACCESS_DENIED("accessdenied"), BOOTSTRAP("bootstrap"),
    SPRING_RABBIT_CONNECTING("attempting to connect to: ["), PIKA_CONNECTING("connecting to ("), QUEUED("queued"),
    PUBLISHED("published"), ERROR("error"), EXCEPTION("exception"), TRACEBACK("traceback"),
    // a connection failure's shape (ConnectionShape)
    ERRNO("errno"), CODE("code"), RETRY("retry"), RETRYING("retrying"), TRYING_AGAIN("trying again"), RECONNECT("reconnect"), CONNECT("connect"), ETIMEDOUT("etimedout"),
    UNKNOWN_HOST("unknown host"), UNKNOWNHOST("unknownhost"), NAME_RESOLUTION("name resolution"), NOT_KNOWN("not known"),
    NO_SUCH_HOST("no such host"), HOST("host"), LOOKUP("lookup "), GETADDRINFO("getaddrinfo"), ENOTFOUND("enotfound"), EAI_AGAIN("eai_again"),
    EAI_NONAME("eai_noname"), COULD_NOT_RESOLVE("could not resolve"), COULDNT_RESOLVE("couldn't resolve"), DNS_RESOLUTION("dns resolution"), FAILED_TO_RESOLVE("failed to resolve"),
    CANNOT_RESOLVE("cannot resolve"), CANT_RESOLVE("can't resolve"), UNABLE_TO_RESOLVE("unable to resolve"),
    NXDOMAIN("nxdomain"), NO_ADDRESS("no address associated"),
    REFUSED("refused"), TIMED_OUT("timed out"), TIMEOUT("timeout"), UNREACHABLE("unreachable"), UNREACH("unreach"),
    EADDRNOTAVAIL("eaddrnotavail"),
    FAILED_TO_CONNECT("failed to connect"), UNABLE_TO_CONNECT("unable to connect"), COULD_NOT_CONNECT("could not connect"),
    COULDNT_CONNECT("couldn't connect"), CANT_CONNECT("can't connect"), CANNOT_CONNECT("cannot connect"),
    CANNOT_REACH("cannot reach"), CANT_REACH("can't reach"), COULD_NOT_REACH("could not reach"),
    UNABLE_TO_REACH("unable to reach"), CONNECTION_FAILED("connection failed"), CONNECT_FAILED("connect failed"),
    FAILED_TO_ESTABLISH("failed to establish"), COULD_NOT_BE_ESTABLISHED("could not be established"),
    CONNECTION_ERROR("connection error"), CONNECTIONERROR("connectionerror"), ERROR_CONNECTING("error connecting"),
    CONNECT_ERROR("connect error"), CONNECTION_ATTEMPT_FAILED("connection attempt failed"), NOT_REACHABLE("not reachable");

    final String text;

    Word(String text) {
        this.text = text;
    }
}

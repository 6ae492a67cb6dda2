import client from 'prom-client';

/** Seconds: a request from a cached read (a tenth of a millisecond) to a long-poll (50 s). */
const REQUEST_BUCKETS = [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 10, 30, 60];
/** Seconds: a write transaction of one small write (tens of µs) to a large batch or a slow disk. */
const DATABASE_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.025, 0.1, 0.5, 2.5];

type RequestLabel = 'method' | 'route' | 'status_class';

/** Counts of the event queues this process holds, read at each scrape. */
export interface QueueCounts {
  readonly size: number;
  readonly parkedPolls: number;
}

/** Node's own metrics (memory, CPU, event loop, GC): one set per process, whatever its servers. */
let processRegistry: client.Registry | undefined;

function processMetrics(): client.Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The metrics of one server, in the Prometheus text format (GET /metrics): requests by route,
 * event queues and parked long-polls, write transactions (their time, size and failures) and
 * syncs to disk, and Node's default metrics. Labels have bounded values: a route's pattern, never its URL.
 */
export class ServerMetrics {
  readonly registry = new client.Registry();
  private readonly node = processMetrics();

  private readonly requests = new client.Histogram({
    name: 'parley_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status class, and the time to answer them',
    labelNames: ['method', 'route', 'status_class'] satisfies RequestLabel[],
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });

  private readonly transactions = new client.Histogram({
    name: 'parley_db_transaction_duration_seconds',
    help: 'Write transactions (a group commit of one or more writes), from begin to commit',
    buckets: DATABASE_BUCKETS,
    registers: [this.registry],
  });

  private readonly transactionWrites = new client.Counter({
    name: 'parley_db_transaction_writes_total',
    help: 'Writes committed in write transactions; divided by their count, the group commit size',
    registers: [this.registry],
  });

  private readonly failedTransactions = new client.Counter({
    name: 'parley_db_transactions_failed_total',
    help: 'Write transactions that failed and committed nothing',
    registers: [this.registry],
  });

  private readonly rolledBack = new client.Counter({
    name: 'parley_db_writes_rolled_back_total',
    help: 'Writes rolled back: refused by their action, or an error of the database',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly syncs = new client.Histogram({
    name: 'parley_db_sync_duration_seconds',
    help: 'Syncs to disk after a commit (the write-ahead log of SQLite), failed ones included',
    buckets: DATABASE_BUCKETS,
    registers: [this.registry],
  });

  private readonly failedSyncs = new client.Counter({
    name: 'parley_db_syncs_failed_total',
    help: 'Syncs to disk that failed: their writes were refused to their callers',
    registers: [this.registry],
  });

  private readonly queries = new client.Histogram({
    name: 'parley_db_query_duration_seconds',
    help: 'Statements run on the database, reads and writes, from sending to the last row',
    buckets: DATABASE_BUCKETS,
    registers: [this.registry],
  });

  private readonly failedQueries = new client.Counter({
    name: 'parley_db_query_errors_total',
    help: 'Statements the database refused or failed',
    registers: [this.registry],
  });

  /** One statement run through Kysely (openDatabase's onQuery). */
  observeQuery = (seconds: number, failed: boolean) => {
    this.queries.observe(seconds);
    if (failed) this.failedQueries.inc();
  };

  /** Reports the queues' counts at every scrape. */
  watchQueues(queues: QueueCounts) {
    new client.Gauge({
      name: 'parley_event_queues',
      help: 'Event queues held by this process',
      registers: [this.registry],
      collect() {
        this.set(queues.size);
      },
    });
    new client.Gauge({
      name: 'parley_parked_longpolls',
      help: 'GET /events requests waiting for an event or their heartbeat',
      registers: [this.registry],
      collect() {
        this.set(queues.parkedPolls);
      },
    });
  }

  /** Visitors' streams of web-public events open in this process (PARLEY_WEB_PUBLIC_EVENTS_MAX). */
  watchVisitors(visitors: { readonly size: number }) {
    new client.Gauge({
      name: 'parley_visitor_streams',
      help: "Visitors' streams of web-public events open in this process",
      registers: [this.registry],
      collect() {
        this.set(visitors.size);
      },
    });
  }

  /**
   * The request histogram's series, by method, route and status class: found again by one string
   * rather than by hashing their labels at every request (thousands of parked long-polls are
   * answered at once when an event goes out). Their number is bounded as the labels' values are.
   */
  private readonly requestSeries = new Map<string, client.Histogram.Internal<RequestLabel>>();

  /** One answered (or abandoned) HTTP request. */
  observeRequest(method: string, route: string, statusClass: string, seconds: number) {
    const key = `${method} ${statusClass} ${route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      series = this.requests.labels({ method, route, status_class: statusClass });
      this.requestSeries.set(key, series);
    }
    series.observe(seconds);
  }

  /**
   * One write transaction, from begin to commit or rollback: its writes committed, refused by
   * their action or failed in the database (each rolled back alone); `failed`, nothing committed.
   */
  observeTransaction(
    seconds: number,
    outcome: { committed: number; refused: number; errors: number } | 'failed',
  ) {
    this.transactions.observe(seconds);
    if (outcome === 'failed') {
      this.failedTransactions.inc();
      return;
    }
    if (outcome.committed) this.transactionWrites.inc(outcome.committed);
    if (outcome.refused) this.rolledBack.inc({ reason: 'refused' }, outcome.refused);
    if (outcome.errors) this.rolledBack.inc({ reason: 'error' }, outcome.errors);
  }

  observeSync(seconds: number, failed: boolean) {
    this.syncs.observe(seconds);
    if (failed) this.failedSyncs.inc();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text a scrape reads: this server's metrics, then the process's. */
  async text(): Promise<string> {
    const [own, node] = await Promise.all([this.registry.metrics(), this.node.metrics()]);
    return `${own}\n${node}`;
  }
}

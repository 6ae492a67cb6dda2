/**
 * Who holds the parked long-polls of a delivery figure. By default a child process
 * (bench/poll-worker.ts): the people waiting for a message are elsewhere than the server, and
 * reading 10,000 answers in the server's own process would time that reading along with the
 * server's writing (on a 2-core machine each process has a core of its own). Each process then
 * needs about one descriptor per poll; in one process each poll costs two, and 10,000 polls need
 * more than a usual hard limit of 20,000 allows.
 *
 * Times are read from the monotonic clock every process of the machine shares
 * (`process.hrtime`), so the time from the send (read here) to each answer (read where the poll
 * is) means the same in both arrangements.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';

/** Milliseconds on the machine-wide monotonic clock. */
export const clockMs = () => Number(process.hrtime.bigint()) / 1e6;

export interface PollRequest {
  url: string;
  headers?: Record<string, string>;
}

export interface PollAnswer {
  /** clockMs() when the answer's body was read */
  at: number;
  /** the id of the last event of the answer, when it has events */
  lastEventId?: number;
}

export interface Poller {
  readonly where: 'this process' | 'child process' | 'child process, HTTP/2';
  /** Sends every request at once; resolves, in order, once all are answered. */
  poll(requests: PollRequest[]): Promise<PollAnswer[]>;
  close(): Promise<void>;
}

/**
 * Long-polls over plain sockets: each request is written as HTTP/1.1 bytes on a kept-alive
 * connection of its own slot, and its answer is read with no more work than finding where the
 * body ends (Content-Length or chunks). A poll's cost on the client is then a small part of a
 * server's, so the figure times the server writing its answers rather than a client reading them.
 */
class RawConnection {
  private socket: net.Socket | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private current: {
    resolve(answer: PollAnswer): void;
    reject(err: Error): void;
    received: boolean;
    retry: (err?: Error) => void;
  } | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** Whether this connection goes where `url` does. */
  serves(url: URL): boolean {
    return url.hostname === this.host && Number(url.port) === this.port;
  }

  private connect(): net.Socket {
    const socket = net.connect(this.port, this.host);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    let ended = false;
    const gone = (err?: Error) => {
      // 'error' is followed by 'close': one end per socket.
      if (ended) return;
      ended = true;
      if (this.socket !== socket) return;
      this.socket = null;
      const current = this.current;
      if (!current) return;
      // A kept-alive connection the server closed before this request reached it, or a
      // connection refused while thousands are opened at once: the poll is tried anew (a GET
      // of the same events), a few times.
      if (!current.received) return current.retry(err);
      this.current = null;
      current.reject(err ?? new Error('the server closed the connection mid-answer'));
    };
    socket.on('error', (err) => gone(err));
    socket.on('close', () => gone());
    return socket;
  }

  send(request: PollRequest): Promise<PollAnswer> {
    const url = new URL(request.url);
    let head = `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
    head += 'Accept-Encoding: gzip\r\n';
    for (const [k, v] of Object.entries(request.headers ?? {})) head += `${k}: ${v}\r\n`;
    const bytes = head + '\r\n';
    return new Promise((resolve, reject) => {
      let tries = 0;
      const write = () => {
        this.buffer = Buffer.alloc(0);
        if (!this.socket || this.socket.destroyed) this.socket = this.connect();
        this.socket.write(bytes);
      };
      this.current = {
        resolve,
        reject,
        received: false,
        retry: (err) => {
          if (++tries > 3) {
            this.current = null;
            return reject(err ?? new Error('the server closed the connection four times'));
          }
          write();
        },
      };
      write();
    });
  }

  private onData(chunk: Buffer) {
    // When these bytes were read: the answer's time once they complete it.
    const at = clockMs();
    const current = this.current;
    if (!current) return;
    current.received = true;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end === -1) return;
    const head = this.buffer.subarray(0, end).toString('latin1').toLowerCase();
    const status = Number(head.slice(9, 12));
    const header = (name: string) => {
      const at = head.indexOf(`\r\n${name}:`);
      if (at === -1) return undefined;
      const from = at + name.length + 3;
      const to = head.indexOf('\r\n', from);
      return head.slice(from, to === -1 ? undefined : to).trim();
    };
    let body: Buffer | null = null;
    const rest = this.buffer.subarray(end + 4);
    const length = header('content-length');
    if (length !== undefined) {
      if (rest.length < Number(length)) return;
      body = rest.subarray(0, Number(length));
    } else if (header('transfer-encoding') === 'chunked') {
      body = dechunk(rest);
      if (!body) return;
    } else {
      return; // the body ends when the connection closes, which a long-poll's never does
    }
    this.current = null;
    this.buffer = Buffer.alloc(0);
    if (header('connection') === 'close') {
      this.socket?.destroy();
      this.socket = null;
    }
    try {
      const text = (
        header('content-encoding') === 'gzip' ? zlib.gunzipSync(body) : body
      ).toString();
      const parsed = JSON.parse(text) as { events?: { id: number }[] };
      if (status < 200 || status > 299) throw new Error(`poll answered ${status}: ${text}`);
      const events = parsed.events ?? [];
      current.resolve({
        at,
        lastEventId: events.length ? events[events.length - 1]!.id : undefined,
      });
    } catch (err) {
      current.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  close() {
    this.socket?.destroy();
    this.socket = null;
  }
}

/** The body of a complete chunked answer, or null while its last chunk has not arrived. */
function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = data.indexOf('\r\n', at);
    if (line === -1) return null;
    const size = parseInt(data.subarray(at, line).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('a malformed chunk');
    if (size === 0) return data.length >= line + 4 ? Buffer.concat(parts) : null;
    if (data.length < line + 2 + size + 2) return null;
    parts.push(data.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

/** A set of kept-alive connections, one per place in a batch, reused batch after batch. */
export class RawPolls {
  private connections: RawConnection[] = [];

  /** Sends every request at once; resolves, in order, once all are answered. */
  pollAll(requests: PollRequest[]): Promise<PollAnswer[]> {
    return Promise.all(
      requests.map((request, i) => {
        const url = new URL(request.url);
        let connection = this.connections[i];
        if (!connection || !connection.serves(url)) {
          connection?.close();
          connection = this.connections[i] = new RawConnection(url.hostname, Number(url.port));
        }
        return connection.send(request);
      }),
    );
  }

  close() {
    for (const connection of this.connections) connection.close();
    this.connections = [];
  }
}

/** How many polls a load balancer's HTTP/2 connection carries in the bench (`H2Polls`). */
export const STREAMS_PER_CONNECTION = 1_000;

/**
 * Long-polls as a load balancer speaking HTTP/2 to the process sends them (HAProxy's `proto h2`,
 * deploy/haproxy/parley.cfg): a thousand streams on each connection, so that 50,000 polls take
 * 50 descriptors rather than 50,000. The answers' windows are large, as a balancer's are, so that
 * no answer waits for a window update.
 */
export class H2Polls {
  private sessions = new Map<string, http2.ClientHttp2Session[]>();

  private session(origin: string, i: number): http2.ClientHttp2Session {
    let list = this.sessions.get(origin);
    if (!list) this.sessions.set(origin, (list = []));
    const slot = Math.floor(i / STREAMS_PER_CONNECTION);
    const open = list[slot];
    if (open && !open.closed && !open.destroyed) return open;
    const session = http2.connect(origin, {
      settings: { initialWindowSize: 1 << 20, enablePush: false },
      maxSessionMemory: 512,
      // The default allows 10,000 streams waiting for the server's acknowledgement of settings
      peerMaxConcurrentStreams: 100_000,
    });
    session.on('error', () => {}); // each stream reports its own failure
    session.once('connect', () => session.setLocalWindowSize(64 << 20));
    list[slot] = session;
    return session;
  }

  /** Sends every request at once; resolves, in order, once all are answered. */
  pollAll(requests: PollRequest[]): Promise<PollAnswer[]> {
    return Promise.all(
      requests.map((request, i) => {
        const url = new URL(request.url);
        const stream = this.session(url.origin, i).request({
          ':path': url.pathname + url.search,
          'accept-encoding': 'gzip',
          ...request.headers,
        });
        return new Promise<PollAnswer>((resolve, reject) => {
          let status = 0;
          let gzip = false;
          const chunks: Buffer[] = [];
          stream.on('response', (headers) => {
            status = Number(headers[':status']);
            gzip = headers['content-encoding'] === 'gzip';
          });
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            const at = clockMs();
            try {
              const body = Buffer.concat(chunks);
              const text = (gzip ? zlib.gunzipSync(body) : body).toString();
              if (status < 200 || status > 299) throw new Error(`poll answered ${status}: ${text}`);
              const events = (JSON.parse(text) as { events?: { id: number }[] }).events ?? [];
              resolve({ at, lastEventId: events.length ? events[events.length - 1]!.id : undefined }); // prettier-ignore
            } catch (err) {
              reject(err instanceof Error ? err : new Error(String(err)));
            }
          });
          stream.end();
        });
      }),
    );
  }

  close() {
    for (const list of this.sessions.values()) for (const session of list) session.destroy();
    this.sessions.clear();
  }
}

/** Polls from this process, sharing its event loop with whatever else runs here. */
export function inProcessPoller(): Poller {
  const polls = new RawPolls();
  return {
    where: 'this process',
    poll: (requests) => polls.pollAll(requests),
    close: async () => polls.close(),
  };
}

/** A child process that sends the polls; one batch at a time. Closing it closes its sockets. */
export function childPoller(protocol: 'http1' | 'h2' = 'http1'): Poller {
  const worker = path.join(path.dirname(new URL(import.meta.url).pathname), 'poll-worker.ts');
  // tsx's loader runs the TypeScript, whatever ran this process (npm run bench, vitest).
  const child = fork(worker, [protocol], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let pending: { resolve(a: PollAnswer[]): void; reject(e: Error): void } | null = null;
  const failed = (err: Error) => {
    pending?.reject(err);
    pending = null;
  };
  child.on('message', (msg: { answers?: PollAnswer[]; error?: string }) => {
    if (msg.error) failed(new Error(`poll worker: ${msg.error}`));
    else if (msg.answers) {
      pending?.resolve(msg.answers);
      pending = null;
    }
  });
  child.on('exit', (code) => failed(new Error(`the poll worker exited (${code})`)));
  return {
    where: protocol === 'h2' ? 'child process, HTTP/2' : 'child process',
    poll(requests) {
      if (pending) throw new Error('one batch of polls at a time');
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        child.send({ requests });
      });
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

/** The soft limit on open files of this process (Linux), or null where it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const limits = fs.readFileSync('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    if (!match) return null;
    return match[1] === 'unlimited' ? Infinity : Number(match[1]);
  } catch {
    return null;
  }
}

/**
 * Where `waiters` polls can be held: in a child process (`auto`, `child`) or here (`same`), or
 * nowhere (null) when the open-file limit cannot hold them there. Each call of the answer gives a
 * poller to use and close.
 */
export function pollerFor(
  waiters: number,
  mode: 'auto' | 'same' | 'child' | 'h2',
): (() => Poller) | null {
  const limit = openFileLimit() ?? Infinity;
  if (mode === 'same') return limit >= waiters * 2 + 1_000 ? inProcessPoller : null;
  if (mode === 'h2') return h2ChildPoller;
  return limit >= waiters + 1_000 ? childPoller : null;
}

/** A child process that sends its polls as a load balancer's HTTP/2 streams (`H2Polls`). */
export const h2ChildPoller = () => childPoller('h2');

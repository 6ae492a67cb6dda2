/**
 * Who holds the parked long-polls of a delivery figure. In the benchmark's own process each
 * poll costs two file descriptors there (its client socket and the server's); 10,000 polls need
 * more than a usual hard limit of 20,000 allows. A child process (bench/poll-worker.ts) then
 * holds the client sockets, so that each process needs about one descriptor per poll.
 *
 * Times are read from the monotonic clock every process of the machine shares
 * (`process.hrtime`), so the time from the send (read here) to each answer (read where the poll
 * is) means the same in both arrangements.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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
  readonly where: 'this process' | 'child process';
  /** Sends every request at once; resolves, in order, once all are answered. */
  poll(requests: PollRequest[]): Promise<PollAnswer[]>;
  close(): Promise<void>;
}

async function answer(request: PollRequest): Promise<PollAnswer> {
  const res = await fetch(request.url, { headers: request.headers });
  const body = (await res.json()) as { events?: { id: number }[] };
  const at = clockMs();
  if (!res.ok) throw new Error(`poll answered ${res.status}: ${JSON.stringify(body)}`);
  const events = body.events ?? [];
  return { at, lastEventId: events.length ? events[events.length - 1]!.id : undefined };
}

/** Sends the requests of `poll` from this process. */
export function pollAll(requests: PollRequest[]): Promise<PollAnswer[]> {
  return Promise.all(requests.map(answer));
}

export const inProcessPoller: Poller = {
  where: 'this process',
  poll: pollAll,
  close: async () => {},
};

/** A child process that sends the polls; one batch at a time. Closing it closes its sockets. */
export function childPoller(): Poller {
  const worker = path.join(path.dirname(new URL(import.meta.url).pathname), 'poll-worker.ts');
  // tsx's loader runs the TypeScript, whatever ran this process (npm run bench, vitest).
  const child = fork(worker, [], {
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
    where: 'child process',
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
 * Where `waiters` polls can be held: here when client and server sockets both fit under the
 * limit (as the smaller figures always were), else in a child process when one side fits, else
 * nowhere (null). `mode` forces one. Each call of the answer gives a poller to use and close.
 */
export function pollerFor(waiters: number, mode: 'auto' | 'same' | 'child'): (() => Poller) | null {
  const limit = openFileLimit() ?? Infinity;
  const fitsHere = limit >= waiters * 2 + 1_000;
  const fitsSplit = limit >= waiters + 1_000;
  if (mode === 'same') return fitsHere ? () => inProcessPoller : null;
  if (mode === 'child' || !fitsHere) return fitsSplit ? childPoller : null;
  return () => inProcessPoller;
}

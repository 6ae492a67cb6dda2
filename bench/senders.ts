/**
 * Concurrent senders for the throughput figures (sending with 16 clients, and its floor on the
 * bare insert), run in a child process (bench/send-worker.ts): people sending messages are
 * elsewhere than the server, and clients in the server's own process would have their own
 * work (making requests, reading answers) counted against the server's throughput. Both the
 * figure and its floor are sent this way, so they stay comparable.
 *
 * Each is the median of several timed rounds after a warm-up long enough for V8 to have compiled
 * the code that answers: in the first messages after a start, V8's compiler threads take a
 * share of the processors comparable to the server's own work (by /proc's thread times), on a
 * machine whose cores the senders share. A server that runs for hours is measured, not one
 * that started two seconds ago; the first round is still reported beside the figure.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

export interface SendPlan {
  url: string;
  headers: Record<string, string>;
  /** the body of each request, `{i}` standing for the request's number */
  body: string;
  clients: number;
  perClient: number;
  /** requests each client sends first, not counted: enough for the server's code to be compiled */
  warmUp: number;
  /** timed rounds of `perClient` requests from each client */
  rounds: number;
}

/** Messages per second of each timed round. */
export interface SendResult {
  rounds: number[];
  /** the median round: the figure */
  median: number;
}

/** Sends the plan from this process: each client sends its requests one after another. */
export async function sendAll(plan: SendPlan): Promise<SendResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.clients });
  const post = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const body = plan.body.replaceAll('{i}', String(i));
      const request = http.request(
        plan.url,
        {
          method: 'POST',
          agent,
          headers: { ...plan.headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            if (res.statusCode !== 200)
              reject(new Error(`sending answered ${res.statusCode}: ${text}`));
            else resolve();
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  const each = (count: number, offset: number) =>
    Promise.all(
      Array.from({ length: plan.clients }, async (_, c) => {
        for (let k = 0; k < count; k++) await post(offset + c * count + k);
      }),
    );
  const rounds: number[] = [];
  try {
    await each(plan.warmUp, 1_000_000);
    for (let r = 0; r < plan.rounds; r++) {
      const begin = performance.now();
      await each(plan.perClient, r * plan.clients * plan.perClient);
      rounds.push(Math.round((plan.clients * plan.perClient * 1000) / (performance.now() - begin)));
    }
  } finally {
    agent.destroy();
  }
  const sorted = [...rounds].sort((a, b) => a - b);
  return { rounds, median: sorted[sorted.length >> 1]! };
}

/** The plan's throughput, sent from a child process that exits afterwards. */
export function sendFromChild(plan: SendPlan): Promise<SendResult> {
  const worker = path.join(path.dirname(new URL(import.meta.url).pathname), 'send-worker.ts');
  const child = fork(worker, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.on('message', (msg: SendResult & { error?: string }) => {
      if (msg.error) reject(new Error(`send worker: ${msg.error}`));
      else resolve(msg);
      child.disconnect();
    });
    child.on('exit', (code) => reject(new Error(`the send worker exited (${code})`)));
    child.send({ plan });
  });
}

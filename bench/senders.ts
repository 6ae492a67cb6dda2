/**
 * Concurrent senders for the throughput figures (sending with 16 clients, and its floor on the
 * bare insert), run in a child process (bench/send-worker.ts): people sending messages are
 * elsewhere than the server, and clients in the server's own process would have their own
 * work (making requests, reading answers) counted against the server's throughput. Both the
 * figure and its floor are sent this way, so they stay comparable.
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
  /** requests each client sends first, not counted (the sending process warms up too) */
  warmUp: number;
}

/** Sends the plan from this process: each client sends its requests one after another. */
export async function sendAll(plan: SendPlan): Promise<{ ms: number; sent: number }> {
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
  let begin = 0;
  try {
    await each(plan.warmUp, 1_000_000);
    begin = performance.now();
    await each(plan.perClient, 0);
  } finally {
    agent.destroy();
  }
  return { ms: performance.now() - begin, sent: plan.clients * plan.perClient };
}

/** Messages per second of `plan`, sent from a child process that exits afterwards. */
export function sendFromChild(plan: SendPlan): Promise<number> {
  const worker = path.join(path.dirname(new URL(import.meta.url).pathname), 'send-worker.ts');
  const child = fork(worker, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.on('message', (msg: { ms?: number; sent?: number; error?: string }) => {
      if (msg.error) reject(new Error(`send worker: ${msg.error}`));
      else resolve(Math.round((msg.sent! * 1000) / msg.ms!));
      child.disconnect();
    });
    child.on('exit', (code) => reject(new Error(`the send worker exited (${code})`)));
    child.send({ plan });
  });
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a client made and the answer it got, as seen on the wire. */
export interface Exchange {
  method: string;
  /** the path under /api/v1 (or the whole path for other URLs), without the query string */
  path: string;
  query: URLSearchParams;
  status: number;
  body: any;
}

/**
 * A transparent HTTP proxy in front of a test server that records every exchange, so a test can
 * run an unmodified third-party program (a binding's example) and then look at what it did.
 */
export class RecordingProxy {
  readonly exchanges: Exchange[] = [];
  private server?: http.Server;
  url = '';

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    const target = new URL(this.target);
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: target.host },
          },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (c: Buffer) => parts.push(c));
            answer.on('end', () => {
              const raw = Buffer.concat(parts);
              const url = new URL(req.url ?? '/', 'http://proxy');
              let body: any = raw.toString('utf8');
              try {
                body = JSON.parse(body);
              } catch {
                /* not JSON: kept as text */
              }
              this.exchanges.push({
                method: req.method ?? 'GET',
                path: url.pathname.replace(/^\/api\/v1(?=\/)/, ''),
                query: url.searchParams,
                status: answer.statusCode ?? 0,
                body,
              });
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(raw);
            });
          },
        );
        upstream.on('error', (err) => {
          res.writeHead(502);
          res.end(String(err));
        });
        upstream.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Forgets what was recorded so far and returns it. */
  take(): Exchange[] {
    return this.exchanges.splice(0, this.exchanges.length);
  }

  async close() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

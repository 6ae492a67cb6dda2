import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { AddressSet } from '../addresses.js';

/**
 * One POST to an outgoing-webhook bot's server, as upstream's outgoing webhook session makes it:
 * a 10-second limit, no redirects followed, and (as upstream's Smokescreen proxy does in
 * production) no connection to the server's own networks unless the operator allows them
 * (PARLEY_WEBHOOK_ALLOW). The address is checked after the name is resolved and the connection
 * goes to that same address, so a name that changes its answer cannot slip past the check.
 */

/** Where no bot's request may go by default: this host, its networks and special-purpose ranges. */
const PRIVATE = new AddressSet([
  'loopback',
  'linklocal',
  'uniquelocal',
  '0.0.0.0/8',
  '100.64.0.0/10',
  '192.0.0.0/24',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  'ff00::/8',
]);

export type WebhookOutcome =
  | { kind: 'response'; status: number; body: string }
  /** the address is in a private network that PARLEY_WEBHOOK_ALLOW does not list */
  | { kind: 'blocked' }
  | { kind: 'timeout' }
  /** refused, reset or not found: the bot's server may be down */
  | { kind: 'connection'; error: Error }
  /** anything else: a URL that cannot be requested, a response too big to read */
  | { kind: 'exception'; error: Error };

export interface WebhookRequest {
  url: string;
  body: string;
  contentType: string;
  userAgent: string;
  timeoutMs: number;
  /** private addresses and ranges the operator allows (config.webhookAllow) */
  allow: readonly string[];
}

/** The most of an answer read; a bot's reply is a chat message, far smaller. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

class BlockedAddress extends Error {
  constructor(address: string) {
    super(`${address} is in a private network`);
    this.name = 'BlockedAddress';
  }
}

class ResponseTooLarge extends Error {
  constructor() {
    super(`The response is larger than ${MAX_RESPONSE_BYTES} bytes`);
    this.name = 'ResponseTooLarge';
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

function isBlocked(address: string, allowed: AddressSet) {
  return PRIVATE.has(address) && !allowed.has(address);
}

export function postWebhook(req: WebhookRequest): Promise<WebhookOutcome> {
  let url: URL;
  try {
    url = new URL(req.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`Unsupported protocol ${url.protocol}`);
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    if (err.name === 'TypeError') err.name = 'InvalidURL';
    return Promise.resolve({ kind: 'exception', error: err });
  }
  const allowed = new AddressSet(req.allow);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal address is connected to without a lookup, so it is checked here.
  if (net.isIP(host) && isBlocked(host, allowed)) return Promise.resolve({ kind: 'blocked' });

  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const bad = list.find((a) => isBlocked(a.address, allowed));
      if (bad) return callback(new BlockedAddress(bad.address), '', 0);
      if (options.all) return (callback as unknown as AllCallback)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };

  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup,
        headers: {
          'Content-Type': req.contentType,
          'Content-Length': Buffer.byteLength(req.body),
          'User-Agent': req.userAgent,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            request.destroy();
            finish({ kind: 'exception', error: new ResponseTooLarge() });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish({
            kind: 'response',
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', (error) => finish({ kind: 'connection', error }));
      },
    );
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
      request.destroy();
    }, req.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof BlockedAddress) finish({ kind: 'blocked' });
      else if (error.code && CONNECTION_CODES.has(error.code))
        finish({ kind: 'connection', error });
      else finish({ kind: 'exception', error });
    });
    request.end(req.body);
  });
}

type AllCallback = (err: Error | null, addresses: dns.LookupAddress[]) => void;

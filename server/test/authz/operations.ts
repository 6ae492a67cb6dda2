import { fetchResult, type TestClient } from '../client.js';
import { page } from './site.js';
import { ACCOUNTS, refused, type Row } from './types.js';

const everybody = ['spectator', 'deactivated', ...ACCOUNTS] as const;
const forbidden = refused(403, 'FORBIDDEN');

/** GET /metrics as relayed by a proxy the server does not trust, from wherever it says. */
function relayedMetrics(c: TestClient) {
  return fetchResult(`${c.baseUrl}/metrics`, { headers: { 'X-Forwarded-For': '127.0.0.1' } });
}

/**
 * The probes and the metrics, outside /api/v1. No account decides anything here: the probes
 * answer everyone, and the metrics are decided by the client's address (loopback and
 * PARLEY_METRICS_ALLOW), never by credentials; metrics.test.ts covers the other addresses.
 */
export const OPERATIONS_ROWS: Row[] = [
  {
    page: 'GET /health',
    who: { allow: everybody },
    call: (c) => page(c, 'GET', '/health'),
  },
  {
    page: 'GET /ready',
    who: { allow: everybody },
    call: (c) => page(c, 'GET', '/ready'),
  },
  {
    page: 'GET /metrics',
    variant: 'from loopback',
    who: { allow: everybody },
    call: (c) => page(c, 'GET', '/metrics'),
  },
  {
    page: 'GET /metrics',
    variant: 'relayed by a proxy not in PARLEY_TRUSTED_PROXIES',
    who: { rest: forbidden, deny: { spectator: forbidden, deactivated: forbidden } },
    call: (c) => relayedMetrics(c),
  },
];

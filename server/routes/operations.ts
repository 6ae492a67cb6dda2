import type { FastifyInstance } from 'fastify';
import type { RoutesOptions } from '../http/route.js';
import { mayReadMetrics } from '../http/operations.js';
import { Readiness, readinessReport } from '../readiness.js';

/** A server built without a Readiness (a bare app) has nothing to wait for. */
const ALWAYS_READY = new Readiness('off');

/**
 * For load balancers, orchestrators and monitoring, outside /api/v1 and without authentication:
 * GET /health (the process is up and its event loop answers), GET /ready (it serves: database
 * reachable, migrations and seed done), both JSON with 200 or 503, and GET /metrics (Prometheus
 * text format) for the addresses allowed to read it.
 */
export async function operationsRoutes(app: FastifyInstance, { ctx }: RoutesOptions) {
  app.get('/health', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'alive', uptime_seconds: Math.round(process.uptime()) };
  });

  app.get('/ready', async (_request, reply) => {
    const report = await readinessReport(ctx, ctx.readiness ?? ALWAYS_READY);
    reply.header('Cache-Control', 'no-store');
    return reply.code(report.ready ? 200 : 503).send(report.body);
  });

  app.get('/metrics', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!ctx.metrics)
      return reply.code(404).send({ result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
    if (!mayReadMetrics(ctx, request))
      return reply.code(403).send({
        result: 'error',
        msg: 'Metrics are for loopback and the addresses in PARLEY_METRICS_ALLOW',
        code: 'FORBIDDEN',
      });
    reply.type(ctx.metrics.contentType);
    return ctx.metrics.text();
  });
}

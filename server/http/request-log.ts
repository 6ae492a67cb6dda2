import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactText } from '../logging.js';

/**
 * Fastify's lines about requests, one per answered request at `debug` (none at the default
 * `info`, where the log tells the server's own story: start, seed, warnings, stop). A request's
 * URL is written with its secrets redacted (logging.ts). Long-polls answered straight to the
 * socket (http/route.ts) skip Fastify's reply, and this line with it; the metrics count them.
 */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.debug(fields, 'request completed');
  }

  override routeNotFound(request: FastifyRequest) {
    request.log.debug(`Route ${request.method}:${redactText(request.url)} not found`);
  }
}

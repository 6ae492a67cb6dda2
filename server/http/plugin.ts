import type { FastifyPluginAsync } from 'fastify';

/**
 * Marks a plugin to run in the scope that registers it instead of a scope of its own, as
 * fastify-plugin does (not a dependency here): its hooks, parsers and decorators then apply to
 * that scope's routes. Fastify reads the same two symbols fastify-plugin sets.
 */
export function inRegisteringScope<Options extends object>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: name,
  });
  return plugin;
}

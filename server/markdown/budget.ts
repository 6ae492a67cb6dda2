import { badRequest } from '../domain/errors.js';
import type { RenderEnv } from './types.js';

/**
 * How much processor time one message may take to render. The reference server gives Markdown
 * 5 seconds in a worker of its own (`unsafe_timeout` in zerver/lib/markdown); here rendering runs
 * on the thread that answers every request, so the budget is a fifth of that, still well above
 * what the longest real messages take, formulas included. It is processor time, not time on the
 * clock, so a loaded machine refuses nothing more than an idle one.
 */
export const RENDER_BUDGET_MS = 1000;

/** Thrown from inside a render when its time is up; renderMarkdown turns it into `unableToRender`. */
export class RenderBudgetExceeded extends Error {
  constructor() {
    super('Markdown rendering took too long');
  }
}

/** The reference server's answer when a message cannot be rendered (`MarkdownRenderingError`). */
export const unableToRender = () => badRequest('Unable to render message');

/** What a render starts with: its budget, and the clocks it is measured against. */
export function startBudget(budgetMs: number): RenderEnv['budget'] {
  return { ms: budgetMs, deadline: performance.now() + budgetMs, cpuAtStart: process.cpuUsage() };
}

/**
 * Ends the render when its budget is spent. Rendering is synchronous, so nothing can interrupt
 * it from outside: the steps that can take long (each linkifier over each text, each formula,
 * each code block) ask here between them. The processor time is only read once the clock says
 * the budget may be spent (processor time never runs ahead of the clock on one thread), so an
 * ordinary render pays one `performance.now()` per step.
 */
export function checkBudget(env: RenderEnv | null): void {
  if (!env || performance.now() <= env.budget.deadline) return;
  const used = process.cpuUsage(env.budget.cpuAtStart);
  if ((used.user + used.system) / 1000 > env.budget.ms) throw new RenderBudgetExceeded();
}

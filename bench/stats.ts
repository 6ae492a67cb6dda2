import { performance } from 'node:perf_hooks';

export interface Stats {
  n: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    n: sorted.length,
    p50_ms: round(at(0.5)),
    p95_ms: round(at(0.95)),
    p99_ms: round(at(0.99)),
    max_ms: round(sorted[sorted.length - 1]),
  };
}

/** Runs `fn` `rounds` times one after another (after two warm-up calls) and times each call. */
export async function timeEach(
  rounds: number,
  fn: (i: number) => Promise<unknown>,
): Promise<Stats> {
  await fn(-1);
  await fn(-2);
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

// Small statistics for the benchmark: medians and percentiles of timings, rounded for the report.

export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
}

export interface Latency {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

/** The value at percentile `p` (0–100) of `values`, nearest-rank method. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export const round = (v: number, digits = 1): number => (Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : v);

export function summary(values: number[]): Summary {
  return { n: values.length, median: round(percentile(values, 50)), min: round(Math.min(...values)), max: round(Math.max(...values)) };
}

export function latency(values: number[]): Latency {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return { n: values.length, p50: round(percentile(values, 50)), p99: round(percentile(values, 99)), mean: round(mean) };
}

/** Runs `fn` `warmup` times untimed, then `runs` times, returning what each timed run gave. */
export async function repeat<T>(warmup: number, runs: number, fn: () => Promise<T>): Promise<T[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: T[] = [];
  for (let i = 0; i < runs; i++) out.push(await fn());
  return out;
}

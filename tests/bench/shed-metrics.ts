// The service's own count of shed requests (`http_requests_shed_total`, by reason), read from its
// /metrics: what a benchmark reports beside its client-side counts.
export type ShedCounts = Record<string, number>;

export async function shedCounts(baseUrl: string): Promise<ShedCounts> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const counts: ShedCounts = {};
  for (const match of text.matchAll(/^http_requests_shed_total\{reason="([a-z_]+)"\} (\d+)/gm)) {
    counts[match[1]!] = Number(match[2]);
  }
  return counts;
}

/** What was shed between two readings, as `reason n, reason n` (or `-`). */
export function shedSince(before: ShedCounts, after: ShedCounts): string {
  const parts = Object.entries(after)
    .map(([reason, n]) => [reason, n - (before[reason] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} ${n}`);
  return parts.length ? parts.join(', ') : '-';
}

import { Registry, type Metric, type OpenMetricsContentType } from 'prom-client';

/**
 * Whether a scraper asked for OpenMetrics (Prometheus does by default: its Accept header puts
 * `application/openmetrics-text` first), the only text format that carries exemplars.
 */
export function wantsOpenMetrics(accept: string | undefined): boolean {
  return (accept ?? '').includes('application/openmetrics-text');
}

/**
 * The registry's metrics in the OpenMetrics format, with the exemplars (trace ids) of the
 * histograms that keep them. Rendered from a registry of views of the metrics: prom-client's
 * OpenMetrics rendering renames counters in place (drops `_total`, which it prints again), and
 * on the shared objects that rename would stay for every later Prometheus-text scrape. A view
 * (`Object.create(metric)`) takes the rename on itself and reads everything else, values and
 * collect() included, from the metric.
 */
export async function openMetricsOf(registry: Registry): Promise<string> {
  const view = new Registry<OpenMetricsContentType>();
  view.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  for (const metric of registry.getMetricsAsArray()) view.registerMetric(Object.create(metric) as Metric);
  return view.metrics();
}

/** Upper bounds (seconds) of the request duration histogram buckets. */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Per-route HTTP metrics in Prometheus text exposition format 0.0.4. */
export interface HttpMetrics {
  /**
   * Records one finished request. `route` must be the matched route pattern (e.g. `/api/key/v1/:id`, Hono's
   * `c.req.routePath`), never the raw path, so label cardinality stays bounded.
   */
  observe(method: string, route: string, status: number, durationSeconds: number): void;
  /** The exposition text (`GET /metrics`, content type {@link PROMETHEUS_CONTENT_TYPE}). */
  render(): string;
}

/** Content-Type of {@link HttpMetrics.render}'s output. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

interface Series {
  readonly labels: string;
  count: number;
}

interface HistogramSeries {
  readonly labels: string;
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** Escapes a label value: backslash, double quote and line feed (exposition format 0.0.4). */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

/**
 * A tiny registry (no dependency): `credkit_http_requests_total{method,route,status}` counter,
 * `credkit_http_request_duration_seconds{method,route}` histogram, and at render time the
 * `process_resident_memory_bytes` and `nodejs_heap_used_bytes` gauges.
 */
export function createHttpMetrics(): HttpMetrics {
  const requests = new Map<string, Series>();
  const durations = new Map<string, HistogramSeries>();

  return {
    observe(method, route, status, durationSeconds) {
      const base = `method="${escapeLabelValue(method.toUpperCase())}",route="${escapeLabelValue(route)}"`;
      const counterLabels = `${base},status="${escapeLabelValue(String(status))}"`;
      let counter = requests.get(counterLabels);
      if (counter === undefined) {
        counter = { labels: counterLabels, count: 0 };
        requests.set(counterLabels, counter);
      }
      counter.count++;

      let histogram = durations.get(base);
      if (histogram === undefined) {
        histogram = { labels: base, buckets: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 };
        durations.set(base, histogram);
      }
      const seconds = Number.isFinite(durationSeconds) && durationSeconds > 0 ? durationSeconds : 0;
      for (let i = 0; i < DURATION_BUCKETS.length; i++) {
        if (seconds <= DURATION_BUCKETS[i]!) histogram.buckets[i]!++;
      }
      histogram.sum += seconds;
      histogram.count++;
    },

    render() {
      const lines: string[] = [];
      lines.push("# HELP credkit_http_requests_total Total HTTP requests by method, matched route and status.");
      lines.push("# TYPE credkit_http_requests_total counter");
      for (const series of requests.values()) {
        lines.push(`credkit_http_requests_total{${series.labels}} ${series.count}`);
      }
      lines.push("# HELP credkit_http_request_duration_seconds HTTP request duration in seconds.");
      lines.push("# TYPE credkit_http_request_duration_seconds histogram");
      for (const series of durations.values()) {
        DURATION_BUCKETS.forEach((bound, i) => {
          lines.push(
            `credkit_http_request_duration_seconds_bucket{${series.labels},le="${formatNumber(bound)}"} ${series.buckets[i]}`,
          );
        });
        lines.push(`credkit_http_request_duration_seconds_bucket{${series.labels},le="+Inf"} ${series.count}`);
        lines.push(`credkit_http_request_duration_seconds_sum{${series.labels}} ${formatNumber(series.sum)}`);
        lines.push(`credkit_http_request_duration_seconds_count{${series.labels}} ${series.count}`);
      }
      const memory = process.memoryUsage();
      lines.push("# HELP process_resident_memory_bytes Resident memory size in bytes.");
      lines.push("# TYPE process_resident_memory_bytes gauge");
      lines.push(`process_resident_memory_bytes ${memory.rss}`);
      lines.push("# HELP nodejs_heap_used_bytes V8 heap used in bytes.");
      lines.push("# TYPE nodejs_heap_used_bytes gauge");
      lines.push(`nodejs_heap_used_bytes ${memory.heapUsed}`);
      return `${lines.join("\n")}\n`;
    },
  };
}

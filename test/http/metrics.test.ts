import { describe, expect, it } from "vitest";
import { createHttpMetrics, DURATION_BUCKETS, escapeLabelValue } from "../../src/http/metrics.js";

describe("createHttpMetrics", () => {
  it("renders counters, a cumulative histogram and process gauges in text format 0.0.4", () => {
    const metrics = createHttpMetrics();
    metrics.observe("get", "/api/key/v1", 200, 0.003);
    metrics.observe("GET", "/api/key/v1", 200, 0.2);
    metrics.observe("GET", "/api/key/v1", 400, 12);
    metrics.observe("POST", "/api/key/v1/:id", 201, 0.05);
    const text = metrics.render();
    const lines = text.split("\n");

    expect(text.endsWith("\n")).toBe(true);
    expect(lines).toContain("# TYPE credkit_http_requests_total counter");
    expect(lines).toContain('credkit_http_requests_total{method="GET",route="/api/key/v1",status="200"} 2');
    expect(lines).toContain('credkit_http_requests_total{method="GET",route="/api/key/v1",status="400"} 1');
    expect(lines).toContain('credkit_http_requests_total{method="POST",route="/api/key/v1/:id",status="201"} 1');

    expect(lines).toContain("# TYPE credkit_http_request_duration_seconds histogram");
    const get = (le: string) =>
      lines.find((l) =>
        l.startsWith(`credkit_http_request_duration_seconds_bucket{method="GET",route="/api/key/v1",le="${le}"}`),
      );
    expect(get("0.005")).toMatch(/ 1$/);
    expect(get("0.1")).toMatch(/ 1$/);
    expect(get("0.25")).toMatch(/ 2$/);
    expect(get("10")).toMatch(/ 2$/);
    expect(get("+Inf")).toMatch(/ 3$/);
    expect(lines).toContain('credkit_http_request_duration_seconds_count{method="GET",route="/api/key/v1"} 3');
    const sum = lines.find((l) => l.startsWith('credkit_http_request_duration_seconds_sum{method="GET"'));
    expect(Number(sum?.split(" ").at(-1))).toBeCloseTo(12.203, 6);

    // one bucket line per bound plus +Inf, per series
    const buckets = lines.filter((l) => l.startsWith('credkit_http_request_duration_seconds_bucket{method="POST"'));
    expect(buckets).toHaveLength(DURATION_BUCKETS.length + 1);
    expect(DURATION_BUCKETS[0]).toBe(0.005);
    expect(DURATION_BUCKETS.at(-1)).toBe(10);

    expect(lines).toContain("# TYPE process_resident_memory_bytes gauge");
    expect(lines.find((l) => l.startsWith("process_resident_memory_bytes "))).toMatch(
      /^process_resident_memory_bytes \d+$/,
    );
    expect(lines).toContain("# TYPE nodejs_heap_used_bytes gauge");
    expect(lines.find((l) => l.startsWith("nodejs_heap_used_bytes "))).toMatch(/^nodejs_heap_used_bytes \d+$/);

    // every sample line is `name{labels} value` or `name value`
    for (const line of lines.filter((l) => l !== "" && !l.startsWith("#"))) {
      expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})? \S+$/);
    }
  });

  it("escapes backslashes, quotes and newlines in label values", () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    const metrics = createHttpMetrics();
    metrics.observe("GET", '/weird"\\\n', 200, 0.001);
    expect(metrics.render()).toContain('route="/weird\\"\\\\\\n"');
  });

  it("renders only the headers and gauges before any request", () => {
    const text = createHttpMetrics().render();
    expect(text).not.toContain("credkit_http_requests_total{");
    expect(text).toContain("# HELP credkit_http_requests_total");
  });
});

import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: test receiver hands back parsed JSON as is
  body: any;
  at: number;
}

/** What the receiver answers for a path: a status, optionally after a delay (longer than the timeout = no response). */
export interface ReceiverAnswer {
  status: number;
  delayMs?: number;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:port */
  origin: string;
  /** every request received, in order */
  received: ReceivedWebhook[];
  /** how `path` answers (default 200) */
  answer(path: string, answer: ReceiverAnswer | ((count: number) => ReceiverAnswer)): void;
  /** requests received on one path */
  on(path: string): ReceivedWebhook[];
  close(): Promise<void>;
}

/** A real loopback HTTP server that records webhook POSTs and answers per path as told. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const answers = new Map<string, ReceiverAnswer | ((count: number) => ReceiverAnswer)>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      received.push({ path, headers: req.headers, body, at: Date.now() });
      const configured = answers.get(path) ?? { status: 200 };
      const answer =
        typeof configured === "function" ? configured(received.filter((r) => r.path === path).length) : configured;
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.status >= 300 && answer.status < 400 ? { location: "/elsewhere" } : {});
        res.end(answer.status === 204 ? undefined : "{}");
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          reply();
        }, answer.delayMs);
        timers.add(timer);
      } else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    answer: (path, answer) => answers.set(path, answer),
    on: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

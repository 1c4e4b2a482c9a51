import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Credkit, createCredkit } from "../credkit.js";
import { credkitNode } from "../http/mount.js";

export interface ServeOptions {
  configFiles: string[];
  /** development: generate a missing encryption key */
  dev: boolean;
  print: (line: string) => void;
}

export interface RunningServer {
  kit: Credkit;
  url: string;
  /** stops accepting, lets in-flight requests finish, closes storage */
  stop(): Promise<void>;
}

/** Starts the reference server: the library with its default adapters on app.serverIp:app.serverPort. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const kit = await createCredkit({ configFiles: options.configFiles, allowGeneratedSecrets: options.dev });
  for (const path of kit.config.generatedSecrets) {
    options.print(`warning: ${path} was generated for this run; keys created now cannot be used after a restart`);
  }
  const server = createServer(credkitNode(kit, { overrideGlobalObjects: true }));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(kit.config.app.serverPort, kit.config.app.serverIp, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let stopping: Promise<void> | undefined;
  return {
    kit,
    url,
    stop: () => {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const forced = setTimeout(() => server.closeAllConnections(), 10_000);
        await closed;
        clearTimeout(forced);
        await kit.close();
      })();
      return stopping;
    },
  };
}

/** `credkit serve`: runs until SIGTERM/SIGINT, then shuts down gracefully. */
export async function runServeCommand(options: ServeOptions): Promise<void> {
  const running = await startServer(options);
  options.print(
    `credkit listening on ${running.url} (storage: ${running.kit.storage.kind}, base URL ${running.kit.config.app.coreBaseUrl})`,
  );
  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      options.print(`${signal} received: finishing in-flight requests`);
      running.stop().then(resolve, resolve);
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  });
  options.print("credkit stopped");
}

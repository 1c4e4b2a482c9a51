// Mount credkit into a Koa 3 app under a path prefix.
// Run: npx tsx examples/koa-app.ts
import { createServer, type Server } from "node:http";
import Koa from "koa";
import { createCredkit, credkitKoa } from "../src/index.js";

export async function start(port = 3001): Promise<{ server: Server; stop: () => Promise<void> }> {
  const kit = await createCredkit({
    config: {
      app: { databaseUrl: "sqlite::memory:", coreBaseUrl: `http://localhost:${port}/credkit` },
      keyStorage: {
        INTERNAL: { params: { private: { encryption: process.env.CREDKIT_ENCRYPTION_KEY ?? "22".repeat(32) } } },
      },
    },
  });
  const app = new Koa();
  app.use(credkitKoa(kit, { prefix: "/credkit" })); // other paths fall through to the next middleware
  app.use((ctx) => {
    ctx.body = { hello: "my koa app" };
  });
  const server = createServer(app.callback()).listen(port);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    server,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await kit.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await start(Number(process.env.PORT ?? 3001));
  console.log("koa app listening; try GET /credkit/health");
}

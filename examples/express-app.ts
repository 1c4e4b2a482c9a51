// Mount credkit into an existing Express 5 app, next to the app's own routes.
// Run: npx tsx examples/express-app.ts   (your app would `import { createCredkit, credkitExpress } from "credkit"`)
import type { Server } from "node:http";
import express from "express";
import { createCredkit, credkitExpress } from "../src/index.js";

export async function start(port = 3000): Promise<{ server: Server; stop: () => Promise<void> }> {
  const kit = await createCredkit({
    config: {
      app: { databaseUrl: "sqlite::memory:", coreBaseUrl: `http://localhost:${port}/credkit` },
      keyStorage: {
        INTERNAL: { params: { private: { encryption: process.env.CREDKIT_ENCRYPTION_KEY ?? "11".repeat(32) } } },
      },
    },
  });
  const app = express();
  app.use(express.json()); // credkit works whatever body parser ran before it
  app.get("/", (_req, res) => {
    res.json({ hello: "my app" });
  });
  app.use("/credkit", credkitExpress(kit)); // /credkit/api/..., /credkit/ssi/..., /credkit/health
  const server = app.listen(port);
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
  const { server } = await start(Number(process.env.PORT ?? 3000));
  console.log(`express app listening on ${JSON.stringify(server.address())}; try GET /credkit/api/config/v1`);
}

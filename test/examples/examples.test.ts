import { afterAll, describe, expect, it } from "vitest";
import { start as startExpress } from "../../examples/express-app.js";
import { start as startKoa } from "../../examples/koa-app.js";
import { run as runScriptedIssuance } from "../../examples/scripted-issuance.js";
import { run as runScriptedVerification } from "../../examples/scripted-verification.js";
import { run as runX509Verification } from "../../examples/x509-verification.js";

// The examples are documentation: they must keep running.
describe("runnable examples", () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });

  it("express-app mounts credkit under /credkit next to the app's routes", async () => {
    const { server, stop } = await startExpress(0);
    stops.push(stop);
    const port = (server.address() as { port: number }).port;
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).json()).toEqual({ hello: "my app" });
    expect((await fetch(`http://127.0.0.1:${port}/credkit/health`)).status).toBe(204);
    const created = await fetch(`http://127.0.0.1:${port}/credkit/api/organisation/v1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "via express" }),
    });
    expect(created.status).toBe(201);
  });

  it("koa-app mounts credkit under a prefix and falls through otherwise", async () => {
    const { server, stop } = await startKoa(0);
    stops.push(stop);
    const port = (server.address() as { port: number }).port;
    expect((await fetch(`http://127.0.0.1:${port}/credkit/health`)).status).toBe(204);
    expect(await (await fetch(`http://127.0.0.1:${port}/other`)).json()).toEqual({ hello: "my koa app" });
  });

  it("scripted-issuance issues a credential to credkit's own wallet in-process", async () => {
    const result = await runScriptedIssuance();
    expect(result.credentialId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(result.claims)).toContain("Ada Lovelace");
  });

  it("x509-verification: the verifier's own CA, an x509_san_dns request, a wallet trusting that CA", async () => {
    expect(await runX509Verification()).toEqual({
      clientId: "x509_san_dns:verifier.example",
      state: "ACCEPTED",
      claims: { age_over_18: true },
    });
  });

  it("scripted-verification discloses exactly the requested claims", async () => {
    const result = await runScriptedVerification();
    expect(result).toEqual({ state: "ACCEPTED", claims: { name: "Grace Hopper", department: "Research" } });
  });
});

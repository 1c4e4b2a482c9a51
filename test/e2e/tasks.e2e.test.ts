/**
 * POST /api/task/v1/run and `credkit task run NAME` (reference §3.10): every implemented task against real flows over
 * HTTP, the summaries they answer, unknown names and bad params, the TASK_CREATE permission, and the CLI.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { sqliteStorage } from "../../src/storage/sql/sqlite.js";
import { createTestKit, TEST_ENCRYPTION_KEY } from "../../src/testing/create-test-kit.js";
import { HTTP_ADAPTERS } from "../support/http-harness.js";
import { type IssuerFixture, startIssuerFixture } from "../support/issuer-fixture.js";
import { startJwksServer } from "../support/jwks-server.js";
import {
  credentialRow,
  type ManualClock,
  manualClock,
  proofRow,
  webhookConfig,
} from "../support/notification-fixture.js";
import { setUpSdkIssuer, setUpSdkWallet } from "../support/sdk-issuance.js";
import { createTempDir } from "../support/temp-dir.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";

const ROOT = resolve(import.meta.dirname, "../..");

describe("POST /api/task/v1/run", () => {
  let clock: ManualClock;
  let issuer: IssuerFixture;
  let wallet: Credkit;
  let walletSetup: Awaited<ReturnType<typeof setUpSdkWallet>>;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    clock = manualClock(new Date());
    receiver = await startWebhookReceiver();
    issuer = await startIssuerFixture({ clock, revocation: true, allowSuspension: true, config: webhookConfig() });
    wallet = await createTestKit({ config: { app: { http: { allowInsecureHttpTransport: true } } } });
    walletSetup = await setUpSdkWallet(wallet);
  });
  afterAll(async () => {
    await wallet?.close();
    await issuer?.close();
    await receiver?.close();
  });

  const run = (body: unknown) => issuer.api("POST", "/api/task/v1/run", body);

  const issue = async (webhookDestinationUrl?: string) => {
    const id = (
      await issuer.api("POST", "/api/credential/v1", {
        credentialSchemaId: issuer.schema.id,
        issuer: issuer.didIdentifierId,
        protocol: "OPENID4VCI_FINAL1",
        claimValues: [{ claimId: issuer.schema.claimIds.given_name, path: "given_name", value: "Erika" }],
        ...(webhookDestinationUrl !== undefined && { webhookDestinationUrl }),
      })
    ).json.id as string;
    const { url } = (await issuer.api("POST", `/api/credential/v1/${id}/share`)).json;
    const held = await walletSetup.accept(url);
    return { id, held };
  };

  it("refuses unknown task names (BR_0089), bad params (BR_0405) and malformed bodies (BR_0084)", async () => {
    const unknown = await run({ name: "NO_SUCH_TASK" });
    expect(unknown.status).toBe(400);
    expect(unknown.json.code).toBe("BR_0089");
    expect(unknown.json.cause.message).toContain("NO_SUCH_TASK");
    for (const params of [{ unexpected: 1 }, "text", [1], { limit: -1 }]) {
      const bad = await run({ name: "WEBHOOK_NOTIFY", params });
      expect(bad.status).toBe(400);
      expect(bad.json.code).toBe("BR_0405");
    }
    expect((await run({ name: "SUSPEND_CHECK", params: { any: true } })).json.code).toBe("BR_0405");
    expect((await run({})).json.code).toBe("BR_0084");
    expect((await run({ name: "SUSPEND_CHECK", extra: 1 })).json.code).toBe("BR_0084");
  });

  it("WEBHOOK_NOTIFY answers its summary at the top level", async () => {
    const { id } = await issue(`${receiver.origin}/task`);
    const response = await run({ name: "WEBHOOK_NOTIFY" });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ attempted: 1, delivered: 1, retryScheduled: 0, failed: 0 });
    expect(receiver.on("/task").map((r) => r.body.credentialId)).toEqual([id]);
    // params are optional and may limit a run
    expect((await run({ name: "WEBHOOK_NOTIFY", params: { limit: 10 } })).json).toMatchObject({ attempted: 0 });
  });

  // before the clock moves: the wallet signs its key proofs with the real time
  it("HOLDER_CHECK_CREDENTIAL_STATUS refreshes held credentials from their status lists", async () => {
    const revoked = await issue();
    const kept = await issue();
    expect((await issuer.api("POST", `/api/credential/v1/${revoked.id}/revoke`)).status).toBe(204);
    const response = await wallet.http.fetch(
      new Request("http://wallet.local/api/task/v1/run", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "HOLDER_CHECK_CREDENTIAL_STATUS" }),
      }),
    );
    expect(response.status).toBe(200);
    const summary = (await response.json()) as { totalChecks: number; updatedCredentialIds: string[] };
    expect(summary.updatedCredentialIds).toEqual([revoked.held.id]);
    expect(summary.totalChecks).toBeGreaterThanOrEqual(2);
    expect((await wallet.credentials.get(revoked.held.id)).state).toBe("REVOKED");
    expect((await wallet.credentials.get(kept.held.id)).state).toBe("ACCEPTED");
    // REVOKED is terminal: no longer checked
    const again = (await wallet.tasks.run("HOLDER_CHECK_CREDENTIAL_STATUS")) as { updatedCredentialIds: string[] };
    expect(again.updatedCredentialIds).toEqual([]);
  });

  it("SUSPEND_CHECK reactivates issued credentials whose suspension ended, and notifies", async () => {
    const ended = await issue(`${receiver.origin}/suspend-check`);
    const open = await issue();
    const endDate = new Date(clock.now().getTime() + 3600_000).toISOString();
    expect(
      (await issuer.api("POST", `/api/credential/v1/${ended.id}/suspend`, { suspendEndDate: endDate })).status,
    ).toBe(204);
    expect((await issuer.api("POST", `/api/credential/v1/${open.id}/suspend`, {})).status).toBe(204);
    expect((await run({ name: "SUSPEND_CHECK" })).json).toEqual({
      totalChecks: 0,
      updatedCredentialIds: [],
      failedCredentialIds: [],
    });
    clock.advance(3600_000);
    expect((await run({ name: "SUSPEND_CHECK" })).json).toEqual({
      totalChecks: 1,
      updatedCredentialIds: [ended.id],
      failedCredentialIds: [],
    });
    expect(await issuer.credentialState(ended.id)).toBe("ACCEPTED");
    expect(await issuer.credentialState(open.id)).toBe("SUSPENDED");
    const history = await issuer.api(
      "GET",
      `/api/history/v1?page=0&pageSize=20&organisationId=${issuer.organisationId}&entityIds[]=${ended.id}`,
    );
    expect(history.json.values.map((h: { action: string }) => h.action)).toContain("REACTIVATED");
    await run({ name: "WEBHOOK_NOTIFY" });
    expect(receiver.on("/suspend-check").map((r) => r.body.status)).toEqual(["ACCEPTED", "SUSPENDED", "ACCEPTED"]);
  });

  it("INTERACTION_EXPIRATION_CHECK expires offers past their pre-authorized code lifetime", async () => {
    const id = (
      await issuer.api("POST", "/api/credential/v1", {
        credentialSchemaId: issuer.schema.id,
        issuer: issuer.didIdentifierId,
        protocol: "OPENID4VCI_FINAL1",
        claimValues: [{ claimId: issuer.schema.claimIds.given_name, path: "given_name", value: "Erika" }],
      })
    ).json.id as string;
    await issuer.api("POST", `/api/credential/v1/${id}/share`);
    expect((await run({ name: "INTERACTION_EXPIRATION_CHECK" })).json).toEqual({
      expiredCredentialOffers: 0,
      expiredProofRequests: 0,
    });
    clock.advance(301_000);
    expect((await run({ name: "INTERACTION_EXPIRATION_CHECK" })).json).toMatchObject({ expiredCredentialOffers: 1 });
    expect(await issuer.credentialState(id)).toBe("INTERACTION_EXPIRED");
  });

  it("RETAIN_PROOF_CHECK removes the claims of accepted proofs past their retention", async () => {
    const presented = credentialRow({
      organisationId: issuer.organisationId,
      role: "VERIFIER",
      state: "ACCEPTED",
      claims: [
        { id: randomUUID(), claimSchemaId: issuer.schema.claimIds.given_name!, path: "given_name", value: "Erika" },
      ],
    });
    await issuer.kit.storage.credentials.insert(presented);
    const due = proofRow({
      organisationId: issuer.organisationId,
      state: "ACCEPTED",
      presentedCredentialIds: [presented.id],
      retainUntilDate: new Date(clock.now().getTime() + 60_000),
    });
    const keepForever = proofRow({ organisationId: issuer.organisationId, state: "ACCEPTED" });
    await issuer.kit.storage.proofs.insert(due);
    await issuer.kit.storage.proofs.insert(keepForever);
    expect((await run({ name: "RETAIN_PROOF_CHECK" })).json).toMatchObject({ totalChecks: 0 });
    clock.advance(60_000);
    expect((await run({ name: "RETAIN_PROOF_CHECK" })).json).toEqual({
      totalChecks: 1,
      updatedProofIds: [due.id],
      failedProofIds: [],
    });
    expect((await issuer.kit.storage.proofs.get(due.id))!.claimsRemovedAt).toBeInstanceOf(Date);
    expect((await issuer.kit.storage.credentials.get(presented.id))!.claims).toEqual([]);
    expect((await issuer.kit.storage.proofs.get(keepForever.id))!.claimsRemovedAt).toBeUndefined();
    expect((await run({ name: "RETAIN_PROOF_CHECK" })).json).toMatchObject({ totalChecks: 0 });
  });
});

describe("task permission (STS)", () => {
  it("needs TASK_CREATE", async () => {
    const jwks = await startJwksServer();
    const kit = await createTestKit({
      config: {
        app: {
          auth: {
            mode: "STS",
            stsTokenValidation: {
              aud: "credkit-core",
              iss: "https://sts.example.com",
              jwksUri: jwks.jwksUri,
              leeway: 30,
              jwksRefreshAfter: 300,
              jwksExpireAfter: 3600,
            },
          },
        },
      },
    });
    const mounted = await HTTP_ADAPTERS[0]!.mount(kit);
    try {
      const { id: organisationId } = await kit.organisations.create({ name: "tasks" });
      const now = Math.floor(Date.now() / 1000);
      const call = async (permissions: string[]) =>
        fetch(`${mounted.baseUrl}/api/task/v1/run`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${await jwks.sign({
              iss: "https://sts.example.com",
              aud: "credkit-core",
              sub: "scheduler",
              iat: now,
              exp: now + 300,
              organisationId,
              permissions,
            })}`,
          },
          body: JSON.stringify({ name: "SUSPEND_CHECK" }),
        });
      expect((await call(["HISTORY_LIST"])).status).toBe(403);
      const allowed = await call(["TASK_CREATE"]);
      expect(allowed.status).toBe(200);
      expect(await allowed.json()).toMatchObject({ totalChecks: 0 });
    } finally {
      await mounted.close();
      await kit.close();
      await jwks.close();
    }
  });
});

describe("credkit task run NAME", () => {
  function runCli(args: string[]) {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      out += chunk;
    });
    return new Promise<{ code: number | null; out: string }>((done) => child.on("exit", (code) => done({ code, out })));
  }

  it("delivers pending notifications of the configured database and prints the summary", async () => {
    const dir = createTempDir("credkit-task-");
    const receiver = await startWebhookReceiver();
    const database = join(dir.path, "tasks.db");
    const configFile = join(dir.path, "credkit.json");
    const config = webhookConfig(
      {},
      {
        app: { databaseUrl: `sqlite:${database}` },
        keyStorage: { INTERNAL: { params: { private: { encryption: TEST_ENCRYPTION_KEY } } } },
      },
    );
    writeFileSync(configFile, JSON.stringify(config));
    try {
      // a state change written by another process (here: this one) before the scheduler runs the task
      const kit = await createTestKit({ storage: await sqliteStorage(database), config: webhookConfig() });
      const setup = await setUpSdkIssuer(kit);
      const credentialId = await setup.createCredential(`${receiver.origin}/cli`);
      await kit.storage.credentials.update(credentialId, { state: "ERROR" });
      await kit.close();
      await kit.storage.close();

      const first = await runCli(["task", "run", "WEBHOOK_NOTIFY", "--config", configFile]);
      expect(first.code, first.out).toBe(0);
      expect(JSON.parse(first.out.trim().split("\n").at(-1)!)).toEqual({
        attempted: 1,
        delivered: 1,
        retryScheduled: 0,
        failed: 0,
      });
      expect(receiver.on("/cli").map((r) => r.body)).toEqual([
        { credentialId, status: "ERROR", eventTimestamp: expect.any(String) },
      ]);
      const second = await runCli(["task", "run", "WEBHOOK_NOTIFY", "--params", '{"limit":5}', "--config", configFile]);
      expect(JSON.parse(second.out.trim().split("\n").at(-1)!)).toMatchObject({ attempted: 0 });

      const unknown = await runCli(["task", "run", "NOPE", "--config", configFile]);
      expect(unknown.code).toBe(1);
      expect(JSON.parse(unknown.out.trim().split("\n").at(-1)!)).toMatchObject({ code: "BR_0089" });

      const list = await runCli(["task", "list", "--config", configFile]);
      expect(list.code).toBe(0);
      expect(list.out).toContain("WEBHOOK_NOTIFY\tWEBHOOK_NOTIFY");
      expect(list.out).toContain("SUSPEND_CHECK\tSUSPEND_CHECK");

      expect((await runCli(["task", "explode"])).code).toBe(2);
    } finally {
      await receiver.close();
      dir.remove();
    }
  }, 60_000);
});

import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CredkitConfigInput } from "../../src/config/schema.js";
import type { Credkit } from "../../src/credkit.js";
import { credkitNode } from "../../src/http/mount.js";
import { memoryStorage } from "../../src/storage/memory/index.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { createApiClient } from "./http-harness.js";

/** A credkit wallet on its own loopback port: an organisation and a holder key, driven over its REST API. */
export interface WalletFixture {
  kit: Credkit;
  server: Server;
  api: ReturnType<typeof createApiClient>;
  organisationId: string;
  keyId: string;
  /** handle-invitation of an OpenID4VCI offer URL and acceptance with the holder key → the held credential's id */
  receiveCredential(offerUrl: string): Promise<string>;
  close(): Promise<void>;
}

/** `certificateValidation` decides which verifiers and registrars the wallet trusts; HTTP to loopback is allowed. */
export async function startWalletFixture(
  certificateValidation: CredkitConfigInput["certificateValidation"] = {},
  keyType: "EDDSA" | "ECDSA" = "EDDSA",
): Promise<WalletFixture> {
  const kit = await createTestKit({
    config: { app: { http: { allowInsecureHttpTransport: true } }, certificateValidation },
    storage: memoryStorage(),
  });
  const server = createServer(credkitNode(kit));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const api = createApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const organisationId = (await kit.organisations.create({ name: `wallet ${randomUUID()}` })).id;
  const keyId = (
    await kit.keys.create({
      organisationId,
      keyType,
      keyParams: {},
      name: "holder key",
      storageType: "INTERNAL",
      storageParams: {},
    })
  ).id;
  return {
    kit,
    server,
    api,
    organisationId,
    keyId,
    async receiveCredential(offerUrl) {
      const { interactionId } = await kit.holder.handleInvitation({ url: offerUrl, organisationId });
      return (await kit.holder.acceptIssuance({ interactionId, keyId })).id;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await kit.close();
    },
  };
}

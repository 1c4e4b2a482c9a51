// Child process of the webhook crash test: issues a credential with a webhook destination over the SDK into a SQLite
// file (ACCEPTED: notification 1), revokes it (REVOKED: notification 2), prints "READY <credentialId>" and waits to
// be killed. Nothing is delivered here: the parent kills this process with SIGKILL and delivers after a restart.
// Usage: node --import tsx test/support/webhook-crash-child.ts <sqlite file> <webhook URL>
import { sqliteStorage } from "../../src/storage/sql/sqlite.js";
import { createTestKit, linkKits } from "../../src/testing/index.js";
import { webhookConfig } from "./notification-fixture.js";
import { setUpSdkIssuer, setUpSdkWallet } from "./sdk-issuance.js";

const [file, destination] = process.argv.slice(2);
if (!file || !destination) throw new Error("usage: webhook-crash-child.ts <sqlite file> <webhook URL>");

const issuer = await createTestKit({
  storage: await sqliteStorage(file),
  config: webhookConfig({}, { app: { coreBaseUrl: "https://issuer.example" } }),
});
const wallet = await createTestKit({ fetch: linkKits({ "https://issuer.example": (r) => issuer.http.fetch(r) }) });
const setup = await setUpSdkIssuer(issuer);
const holder = await setUpSdkWallet(wallet);
const credentialId = await setup.createCredential(destination);
await holder.accept((await issuer.credentials.share(credentialId)).url);
await issuer.credentials.revoke(credentialId);
process.stdout.write(`READY ${credentialId}\n`);
setInterval(() => {}, 60_000);

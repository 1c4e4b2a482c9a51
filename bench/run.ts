import { createServer } from "node:http";
import { credkitNode } from "../src/http/mount.js";
import { createTestKit } from "../src/testing/create-test-kit.js";
import { formatBenchTable } from "./bench-row.js";
import { benchHttp, formatBenchResults } from "./http-overhead.js";
import { benchIssuance } from "./issuance.js";
import { benchKeyAlgorithms } from "./key-algorithms.js";
import { benchNotifications } from "./notifications.js";
import { benchSdJwtVc } from "./sd-jwt-vc.js";
import { benchVerification } from "./verification.js";
import { benchX509 } from "./x509.js";

// npm run bench — every figure next to the raw-crypto (or bare node:http) floor measured in the same run.
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);

console.log(`credkit benchmarks — node ${process.version}, ${new Date().toISOString()}\n`);

if (wanted("keys")) {
  console.log("## Key algorithms through the KeyStorage port (INTERNAL) vs raw crypto\n");
  console.log(formatBenchTable(await benchKeyAlgorithms()), "\n");
}
if (wanted("sd-jwt")) {
  console.log("## SD-JWT VC format vs raw crypto\n");
  console.log(formatBenchTable(await benchSdJwtVc()), "\n");
}
if (wanted("issuance")) {
  console.log("## OpenID4VCI issuance (in-process HTTP handler, SQLite) vs raw crypto floor of the same signatures\n");
  console.log(formatBenchTable(await benchIssuance()), "\n");
}
if (wanted("verification")) {
  console.log("## OpenID4VP 1.0 verification (in-process, SQLite) vs raw crypto floor of the same signatures\n");
  console.log(formatBenchTable(await benchVerification()), "\n");
}
if (wanted("x509")) {
  console.log("## X.509: client-id prefix authentication and certificate issuance vs raw ES256\n");
  console.log(formatBenchTable(await benchX509()), "\n");
}
if (wanted("notifications")) {
  console.log("## Webhook notifications from the outbox (HTTP receiver, MQTT broker) vs raw floors\n");
  console.log(formatBenchTable(await benchNotifications()), "\n");
}
if (wanted("http")) {
  console.log("## HTTP through the node adapter (autocannon, loopback) vs bare node:http hello-world\n");
  const kit = await createTestKit();
  const org = (await kit.organisations.create({ name: "bench" })).id;
  for (let i = 0; i < 10; i++) {
    await kit.keys.create({
      organisationId: org,
      keyType: "EDDSA",
      keyParams: {},
      name: `k${i}`,
      storageType: "INTERNAL",
      storageParams: {},
    });
  }
  const listener = credkitNode(kit, { overrideGlobalObjects: true });
  void createServer;
  const results = await benchHttp([
    { name: "GET /health", listener, path: "/health" },
    {
      name: "GET /api/key/v1?page=0&pageSize=10",
      listener,
      path: `/api/key/v1?page=0&pageSize=10&organisationId=${org}`,
    },
  ]);
  console.log(formatBenchResults(results), "\n");
  await kit.close();
}

// Smoke test of the built package: the CJS and ESM entry points load and a kit works through each.
const assert = require("node:assert");

async function main() {
  const cjs = require("../dist/index.cjs");
  const testing = require("../dist/testing/index.cjs");
  const kit = await testing.createTestKit();
  const { id } = await kit.organisations.create({ name: "cjs" });
  assert.strictEqual((await kit.organisations.get(id)).name, "cjs");
  assert.strictEqual(typeof cjs.credkitExpress, "function");
  await kit.close();

  const esm = await import("../dist/index.js");
  const esmTesting = await import("../dist/testing/index.js");
  const sql = await import("../dist/storage/sql/index.js");
  assert.strictEqual(typeof esm.createCredkit, "function");
  assert.strictEqual(typeof sql.sqliteStorage, "function");
  const esmKit = await esmTesting.createTestKit({ storage: await sql.sqliteStorage(":memory:") });
  const response = await esmKit.http.fetch(new Request("http://localhost/health"));
  assert.strictEqual(response.status, 204);
  await esmKit.close();
  console.log("package check: CJS and ESM entry points work");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

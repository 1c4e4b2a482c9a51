import { randomBytes } from "node:crypto";
import pg from "pg";

/** Admin URL of the PostgreSQL server the suites use; each run creates and drops its own database there. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function probe(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

const failure = await probe();
if (failure !== undefined) {
  if (process.env.CI === "true") {
    throw new Error(`PostgreSQL is required in CI but not reachable at ${POSTGRES_ADMIN_URL}: ${failure}`);
  }
  console.warn(
    `\n[credkit tests] PostgreSQL not reachable at ${POSTGRES_ADMIN_URL} (${failure}): PostgreSQL suites are SKIPPED. ` +
      "Start PostgreSQL or set TEST_POSTGRES_URL; with CI=true they are required.\n",
  );
}

/** Whether PostgreSQL suites run here (always in CI). */
export const postgresAvailable = failure === undefined;

/** Creates a fresh database for one suite; the returned drop() removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `credkit_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

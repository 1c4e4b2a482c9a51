import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createTempDir } from "../support/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "src/cli/main.ts");

/** Runs the CLI from source (tsx resolves from the repository root, so the working directory stays ROOT). */
function runCli(args: string[], env: Record<string, string>, cwd: string) {
  return spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
    cwd,
    env: { ...process.env, ...env, NODE_OPTIONS: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("credkit CLI", () => {
  it("demo walks through issuance and verification on a fresh SQLite file", async () => {
    const dir = createTempDir("credkit-demo-");
    try {
      const child = runCli(["demo"], { CREDKIT_app__databaseUrl: `sqlite:${join(dir.path, "demo.db")}` }, ROOT);
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      child.stderr.on("data", (chunk) => {
        out += chunk;
      });
      const code = await new Promise<number | null>((done) => child.on("exit", done));
      expect(out).toContain("demo finished");
      expect(out).toMatch(/verifier: proof ACCEPTED; accepted claims: given_name="Erika", birthdate="1964-08-12"/);
      expect(code).toBe(0);
    } finally {
      dir.remove();
    }
  }, 60_000);

  it("serve prints a listening line, answers, and stops gracefully on SIGTERM", async () => {
    const dir = createTempDir("credkit-serve-");
    try {
      const child = runCli(
        ["serve", "--dev"],
        {
          CREDKIT_app__databaseUrl: `sqlite:${join(dir.path, "serve.db")}`,
          CREDKIT_app__serverPort: "0",
          CREDKIT_app__auth__mode: "UNSAFE_STATIC",
          CREDKIT_app__auth__staticToken: "secret-token",
        },
        ROOT,
      );
      let out = "";
      const url = await new Promise<string>((found, fail) => {
        child.stdout.on("data", (chunk) => {
          out += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) found(match[1]!);
        });
        child.on("exit", () => fail(new Error(`serve exited early: ${out}`)));
      });
      expect((await fetch(`${url}/health`)).status).toBe(204);
      expect((await fetch(`${url}/api/config/v1`)).status).toBe(401);
      expect((await fetch(`${url}/api/config/v1`, { headers: { authorization: "Bearer secret-token" } })).status).toBe(
        200,
      );
      const exited = new Promise<number | null>((done) => child.on("exit", done));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(out).toContain("credkit stopped");
    } finally {
      dir.remove();
    }
  }, 60_000);

  it("migrate applies the schema once, then reports it up to date", async () => {
    const dir = createTempDir("credkit-migrate-");
    try {
      const env = { CREDKIT_app__databaseUrl: `sqlite:${join(dir.path, "m.db")}` };
      const run = async () => {
        const child = runCli(["migrate"], env, ROOT);
        let out = "";
        child.stdout.on("data", (chunk) => {
          out += chunk;
        });
        await new Promise((done) => child.on("exit", done));
        return out;
      };
      expect(await run()).toContain("applied: 0001-foundation");
      expect(await run()).toContain("schema is up to date");
    } finally {
      dir.remove();
    }
  }, 60_000);
});

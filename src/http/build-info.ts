import { readFileSync } from "node:fs";

let cached: Record<string, string> | undefined;

function packageVersion(): string {
  for (const candidate of ["../../package.json", "../package.json", "../../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "credkit" && pkg.version) return pkg.version;
    } catch {
      // try the next location (source tree vs. dist/)
    }
  }
  return "unknown";
}

/** Build details in One Core's snake_case shape (reference §3.13), filled from the package and environment. */
export function readBuildInfo(): Record<string, string> {
  cached ??= {
    target: `${process.platform}-${process.arch}`,
    build_time: process.env.CREDKIT_BUILD_TIME ?? "",
    branch: process.env.CREDKIT_BUILD_BRANCH ?? "",
    tag: packageVersion(),
    commit: process.env.CREDKIT_BUILD_COMMIT ?? "",
    rust_version: "",
    node_version: process.version,
    pipeline_id: process.env.CREDKIT_BUILD_PIPELINE_ID ?? "",
  };
  return cached;
}

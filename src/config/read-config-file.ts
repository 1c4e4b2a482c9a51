import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { parseDocument } from "yaml";
import { ConfigError } from "./config-error.js";
import { isPlainObject } from "./merge-config.js";

// One configuration file: YAML (`.yml`, `.yaml`) or JSON (`.json`), chosen by extension. Its top level must be a
// mapping; an empty file contributes nothing.

function fail(file: string, message: string, cause?: unknown): never {
  throw new ConfigError([{ path: "", message }], { heading: `Cannot load configuration file "${file}"`, cause });
}

export function readConfigFile(file: string): Record<string, unknown> {
  const extension = extname(file).toLowerCase();
  if (extension !== ".yml" && extension !== ".yaml" && extension !== ".json") {
    fail(file, `unsupported file extension "${extension}" (use .yml, .yaml or .json)`);
  }

  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    fail(file, code === "ENOENT" ? "file does not exist" : `cannot read file (${code ?? String(error)})`, error);
  }

  let content: unknown;
  if (extension === ".json") {
    try {
      content = JSON.parse(text);
    } catch (error) {
      fail(file, `invalid JSON: ${(error as Error).message}`, error);
    }
  } else {
    const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
    const [error] = document.errors;
    if (error) fail(file, `invalid YAML: ${error.message.split("\n")[0]?.replace(/:\s*$/, "")}`, error);
    try {
      content = document.toJS();
    } catch (error) {
      fail(file, `invalid YAML: ${(error as Error).message}`, error);
    }
  }

  if (content === null || content === undefined) return {};
  if (!isPlainObject(content)) fail(file, "the top level must be a mapping of configuration blocks");
  return content;
}

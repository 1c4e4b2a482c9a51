import { parseArgs } from "node:util";
import { isConfigError } from "../config/config-error.js";
import { runDemoCommand } from "./demo-command.js";
import { runMigrateCommand } from "./migrate-command.js";
import { runServeCommand } from "./serve-command.js";
import { runTaskCommand } from "./task-command.js";

const USAGE = `usage: credkit <command> [options]

commands:
  serve    [--config file]... [--dev]   run the HTTP server (app.serverIp:app.serverPort)
  demo     [--config file]...           issue/manage on the embedded SQLite default and print what happens
  migrate  [--config file]...           apply pending database migrations
  task run NAME [--params JSON] [--config file]...
                                        run a configured task once (WEBHOOK_NOTIFY, SUSPEND_CHECK, ...), print its summary
  task list [--config file]...          list the enabled task instances

options:
  --config file   YAML or JSON configuration, repeatable (later wins); CREDKIT_<path__joined> env vars override
  --dev           generate a missing INTERNAL key-storage encryption key (development only)
`;

const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      config: { type: "string", multiple: true },
      dev: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      params: { type: "string" },
    },
    allowPositionals: command === "task",
  });
  const configFiles = values.config ?? [];
  switch (command) {
    case "serve":
      await runServeCommand({ configFiles, dev: values.dev === true, print });
      return 0;
    case "demo":
      await runDemoCommand({ configFiles, print });
      return 0;
    case "migrate":
      await runMigrateCommand(configFiles, print);
      return 0;
    case "task":
      return runTaskCommand({
        configFiles,
        args: positionals,
        ...(values.params !== undefined && { params: values.params }),
        print,
      });
    default:
      process.stdout.write(USAGE);
      return command === undefined || command === "help" || values.help ? 0 : 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (isConfigError(error)) {
      process.stderr.write(`invalid configuration:\n${error.message}\n`);
    } else {
      process.stderr.write(`credkit: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exitCode = 1;
  },
);

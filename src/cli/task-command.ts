import { createCredkit } from "../credkit.js";
import { CredkitError, isCredkitError } from "../errors/credkit-error.js";

export interface TaskCommandOptions {
  configFiles: string[];
  /** `run NAME`, or `list` */
  args: string[];
  /** JSON object of task params (`--params '{"limit":100}'`) */
  params?: string;
  print: (line: string) => void;
}

/**
 * `credkit task run NAME [--params JSON]`: runs one configured task once against app.databaseUrl and prints its JSON
 * summary (the body `POST /api/task/v1/run` answers); `credkit task list` prints the enabled task instances. Meant
 * for cron or a Kubernetes CronJob. Exit code 1 when the task fails.
 */
export async function runTaskCommand(options: TaskCommandOptions): Promise<number> {
  const [action, name, ...extra] = options.args;
  const list = action === "list" && name === undefined;
  if (!list && (action !== "run" || name === undefined || extra.length > 0)) {
    options.print("usage: credkit task run NAME [--params JSON] [--config file]... | credkit task list");
    return 2;
  }
  let params: unknown;
  if (options.params !== undefined) {
    try {
      params = JSON.parse(options.params);
    } catch {
      options.print(JSON.stringify(new CredkitError("BR_0405", "--params is not JSON").toJSON()));
      return 1;
    }
  }
  const kit = await createCredkit({ configFiles: options.configFiles });
  try {
    if (list) {
      for (const task of kit.tasks.names()) options.print(`${task}\t${kit.config.task[task]?.type ?? ""}`);
      return 0;
    }
    const result = await kit.tasks.run(name!, params);
    options.print(JSON.stringify(result));
    return 0;
  } catch (error) {
    if (!isCredkitError(error)) throw error;
    options.print(JSON.stringify(error.toJSON()));
    return 1;
  } finally {
    await kit.close();
  }
}

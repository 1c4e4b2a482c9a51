import { runTaskInputSchema } from "../../../engines/tasks/task-service.js";
import { defineRoute } from "../api-route.js";

/** /api/task/v1 (reference §3.10): runs a configured task once; the task's summary is the response body */
export const taskRoutes = [
  defineRoute({
    method: "post",
    path: "/api/task/v1/run",
    permissions: ["TASK_CREATE"],
    summary: "Run a task (WEBHOOK_NOTIFY, INTERACTION_EXPIRATION_CHECK, SUSPEND_CHECK, …) once",
    tag: "task",
    body: runTaskInputSchema,
    status: 200,
    handle: ({ kit, body }) => kit.tasks.run(body.name, body.params),
  }),
];

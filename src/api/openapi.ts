/**
 * GET /openapi.json (issue 18): an OpenAPI 3.1 description of this API, generated from the same
 * zod schemas the validation uses (each operation handler's `params` plus `commonParams`, through
 * zod's JSON Schema output) and the formats of the operation registry, so it cannot drift from
 * what POST /v2/jobs accepts. Resources without operation parameters are described by hand, once.
 */
import { Hono } from "hono";
import { z } from "zod";
import { HANDLERS } from "../operations/registry";
import { commonParams } from "../operations/validate";
import type { OperationHandler } from "../operations/types";
import type { AppEnv } from "./context";

type Schema = Record<string, unknown>;

const jsonSchema = (s: z.ZodType): Schema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io: "input", unrepresentable: "any" }) as Schema;
  return rest;
};
const sorted = (xs: Iterable<string>) => [...new Set(xs)].filter((x) => x !== "*").sort();

/** The task object schema of one operation: every handler's own parameters, the common ones, and its formats. */
function taskSchema(operation: string, handlers: OperationHandler[]): Schema {
  const properties: Record<string, Schema> = { operation: { const: operation } };
  for (const h of handlers) {
    const own = jsonSchema(h.params) as { properties?: Record<string, Schema> };
    Object.assign(properties, own.properties ?? {});
  }
  const takesInput = handlers.some((h) => h.takesInput);
  if (takesInput) {
    properties.input = {
      oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
      description: "Name(s) of the task(s) of this job whose files are the input (task ids for standalone tasks).",
    };
    properties.ignore_error = { type: "boolean", description: "Dependents run even when this task fails." };
    Object.assign(properties, (jsonSchema(commonParams) as { properties: Record<string, Schema> }).properties);
    const inputs = sorted(handlers.flatMap((h) => h.formats.map((f) => f.input)));
    const outputs = sorted(handlers.flatMap((h) => h.formats.map((f) => f.output)));
    if (inputs.length) properties.input_format = { ...properties.input_format, enum: inputs };
    if (outputs.length) properties.output_format = { ...properties.output_format, enum: outputs };
  }
  const required = [
    "operation",
    ...(takesInput ? ["input"] : []),
    ...(handlers.every((h) => h.requiresOutputFormat) ? ["output_format"] : []),
  ];
  return { type: "object", properties, required, additionalProperties: true };
}

const errorBody = {
  type: "object",
  properties: { message: { type: "string" }, code: { type: "string" }, errors: { type: "object" } },
  required: ["message"],
};
const json = (schema: Schema) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errors = {
  "401": { description: "Unauthenticated.", ...json(ref("Error")) },
  "404": { description: "Not found (or another user's).", ...json(ref("Error")) },
  "422": { description: "Invalid data.", ...json(ref("Error")) },
};

let cached: Schema | undefined;

/** The document (built once per isolate). */
export function openApiDocument(): Schema {
  if (cached) return cached;
  const byOp = new Map<string, OperationHandler[]>();
  for (const h of HANDLERS) byOp.set(h.operation, [...(byOp.get(h.operation) ?? []), h]);
  const schemas: Record<string, Schema> = { Error: errorBody };
  const taskRefs: Schema[] = [];
  const paths: Record<string, Schema> = {};
  for (const [op, handlers] of byOp) {
    const name = `Task_${op.replace(/[^a-z0-9]+/gi, "_")}`;
    schemas[name] = taskSchema(op, handlers);
    taskRefs.push(ref(name));
    paths[`/v2/${op}`] = {
      post: {
        summary: `Create a standalone ${op} task`,
        tags: ["tasks"],
        requestBody: json(ref(name)),
        responses: {
          "201": { description: "The task.", ...json({ type: "object", properties: { data: ref("TaskResult") } }) },
          ...errors,
        },
      },
    };
  }
  schemas.Task = { oneOf: taskRefs, discriminator: { propertyName: "operation" } };
  schemas.TaskResult = {
    type: "object",
    properties: {
      id: { type: "string", format: "uuid" },
      name: { type: "string" },
      job_id: { type: ["string", "null"] },
      operation: { type: "string" },
      status: { enum: ["waiting", "processing", "finished", "error"] },
      percent: { type: "integer" },
      code: { type: ["string", "null"] },
      message: { type: ["string", "null"] },
      engine: { type: ["string", "null"] },
      engine_version: { type: ["string", "null"] },
      result: { type: ["object", "null"] },
    },
  };
  schemas.Job = {
    type: "object",
    properties: {
      id: { type: "string", format: "uuid" },
      tag: { type: ["string", "null"] },
      status: { enum: ["waiting", "processing", "finished", "error"] },
      tasks: { type: "array", items: ref("TaskResult") },
    },
  };
  schemas.NewJob = {
    type: "object",
    properties: {
      tasks: { type: "object", additionalProperties: ref("Task") },
      tag: { type: ["string", "null"] },
      webhook_url: { type: ["string", "null"], format: "uri" },
    },
    required: ["tasks"],
  };
  const jobAnswer = { description: "The job.", ...json({ type: "object", properties: { data: ref("Job") } }) };
  const id = [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }];
  Object.assign(paths, {
    "/v2/jobs": {
      post: {
        summary: "Create a job",
        tags: ["jobs"],
        requestBody: json(ref("NewJob")),
        responses: { "201": jobAnswer, ...errors },
      },
      get: {
        summary: "List jobs",
        tags: ["jobs"],
        parameters: ["filter[status]", "filter[tag]", "include", "per_page", "page"].map((n) => ({
          name: n,
          in: "query",
          schema: { type: "string" },
        })),
        responses: { "200": { description: "Jobs." } },
      },
    },
    "/v2/jobs/{id}": {
      parameters: id,
      get: { summary: "Show a job", tags: ["jobs"], responses: { "200": jobAnswer, ...errors } },
      delete: { summary: "Delete a job", tags: ["jobs"], responses: { "204": { description: "Deleted." } } },
    },
    "/sync/v2/jobs/{id}": {
      parameters: id,
      get: { summary: "Wait for a job to end", tags: ["jobs"], responses: { "200": jobAnswer } },
    },
    "/v2/jobs/{id}/events": {
      parameters: id,
      get: {
        summary: "The job's events as Server-Sent Events",
        tags: ["events"],
        responses: { "200": { description: "text/event-stream: job.* and task.* events; ends with the job." } },
      },
    },
    "/v2/tasks/{id}": {
      parameters: id,
      get: { summary: "Show a task", tags: ["tasks"], responses: { "200": { description: "The task." } } },
      delete: { summary: "Delete a task", tags: ["tasks"], responses: { "204": { description: "Deleted." } } },
    },
    "/v2/tasks/{id}/cancel": {
      parameters: id,
      post: { summary: "Cancel a task", tags: ["tasks"], responses: { "200": { description: "The task." } } },
    },
    "/v2/tasks/{id}/retry": {
      parameters: id,
      post: { summary: "Retry a task", tags: ["tasks"], responses: { "201": { description: "The new task." } } },
    },
    "/v2/operations": {
      get: {
        summary: "The catalogue of operations, formats, engines and options",
        tags: ["catalogue"],
        security: [],
        responses: { "200": { description: "Operations." } },
      },
    },
    "/v2/users/me": {
      get: { summary: "The current user", tags: ["users"], responses: { "200": { description: "The user." } } },
    },
    "/v2/webhooks": {
      post: {
        summary: "Create an account webhook",
        tags: ["webhooks"],
        responses: { "201": { description: "The webhook." } },
      },
    },
    "/v2/signed-url-bases": {
      post: {
        summary: "Create a signed-URL base",
        tags: ["signed urls"],
        responses: { "201": { description: "`{id, url, signing_secret}`." } },
      },
    },
    "/s/{id}": {
      parameters: id,
      get: {
        summary: "Run a signed URL's job; 302 to its exported file",
        tags: ["signed urls"],
        security: [],
        responses: { "302": { description: "The file." }, "403": { description: "Bad signature." } },
      },
    },
  });
  cached = {
    openapi: "3.1.0",
    info: {
      title: "edge-convert",
      version: "2",
      description: "A CloudConvert API v2 compatible service. Live events: socket.io at /socket.io/ (contract §1.8).",
    },
    components: { schemas, securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }],
    paths,
  };
  return cached;
}

export const openapi = new Hono<AppEnv>();
openapi.get("/openapi.json", (c) => c.json(openApiDocument()));

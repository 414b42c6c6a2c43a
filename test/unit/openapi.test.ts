/**
 * GET /openapi.json (issue 18): the document is valid OpenAPI 3.1 (oracle: @seriousme/openapi-schema-validator,
 * the specification's own JSON Schema), and its task schemas agree with the API's validation on
 * tasks the validation accepts and on tasks it refuses (oracle for the schemas: ajv 2020-12).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/api/openapi";
import { handlersOf } from "../../src/operations/registry";
import { validateTaskParams } from "../../src/operations/validate";

const doc = openApiDocument() as { components: { schemas: Record<string, object> }; paths: Record<string, unknown> };

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 and describes every operation's standalone endpoint", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    for (const op of ["convert", "pdf/ocr", "capture-website", "import/upload", "export/url", "watermark", "merge"])
      expect(doc.paths[`/v2/${op}`]).toBeDefined();
  });

  it("its task schemas accept what the validation accepts and refuse what it refuses", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: "doc", components: doc.components });
    const check = (operation: string, task: Record<string, unknown>) => {
      const schema = `doc#/components/schemas/Task_${operation.replace(/[^a-z0-9]+/gi, "_")}`;
      const { input: _graphOnly, ...params } = task; // `input` belongs to the graph (graph/parse.ts), not to the parameters
      const byApi = "params" in validateTaskParams(handlersOf(operation)!, params);
      const bySchema = ajv.validate(schema, { operation, ...task });
      return { byApi, bySchema };
    };
    const cases: [string, Record<string, unknown>, boolean][] = [
      ["convert", { input: "a", output_format: "jpg", width: 200, quality: 80 }, true],
      ["convert", { input: "a", output_format: "jpg", width: "wide" }, false],
      ["convert", { input: "a", output_format: "jpg", quality: 500 }, false],
      // issue 31: an unknown option is accepted (and ignored with a warning), by both
      ["convert", { input: "a", output_format: "pdf", some_other_option: "value" }, true],
      ["pdf/ocr", { input: "a", language: ["eng", "fra"] }, true],
      ["pdf/encrypt", { input: "a", set_password: "x" }, true],
      ["watermark", { input: "a", text: "CONFIDENTIAL", opacity: 50 }, true],
      ["watermark", { input: "a", text: "x", opacity: "half" }, false],
      ["import/url", { url: "https://example.com/a.png" }, true],
      ["import/url", { url: 42 }, false],
    ];
    for (const [op, task, ok] of cases)
      expect({ op, task, ...check(op, task) }).toEqual({ op, task, byApi: ok, bySchema: ok });
  });
});
